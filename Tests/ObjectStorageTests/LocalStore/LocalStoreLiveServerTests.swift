import AsyncHTTPClient
import Foundation
import NIOCore
import Testing
import Vapor
@testable import ObjectStorage

/// The embedded store behind a real HTTP server on a loopback port, driven by a real HTTP client: the body
/// arrives in network-sized chunks (the streaming path) and responses are read the way apps read them.
@Suite(.serialized) struct LocalStoreLiveServerTests {
    struct Live {
        let context: StorageTestContext
        let client: HTTPClient
        let base: String
    }

    func withLiveServer(maxPostRequestBytes: Int64 = 105_906_176, _ body: (Live) async throws -> Void) async throws {
        try await withStorageApp(at: Date(), maxPostRequestBytes: maxPostRequestBytes) { context in
            try await context.app.asyncBoot()
            try await context.app.http.server.shared.start(address: .hostname("127.0.0.1", port: 0))
            let port = try #require(context.app.http.server.shared.localAddress?.port)
            let client = HTTPClient(eventLoopGroupProvider: .singleton)
            do {
                try await body(Live(context: context, client: client, base: "http://127.0.0.1:\(port)"))
            } catch {
                try? await client.shutdown()
                await context.app.http.server.shared.shutdown()
                throw error
            }
            try await client.shutdown()
            await context.app.http.server.shared.shutdown()
        }
    }

    func postForm(_ live: Live, _ post: PresignedPost, file: Data, chunked: Bool = false) async throws -> (HTTPClientResponse, String) {
        let body = MultipartFormBody.form(fields: post.fields.map { ($0.name, $0.value) }, file: file)
        var request = HTTPClientRequest(url: post.url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: body.contentType)
        if chunked {
            // Undeclared length: sent in 64 KiB pieces with chunked transfer encoding.
            let pieces = stride(from: 0, to: body.data.count, by: 65_536).map {
                ByteBuffer(data: body.data[$0..<min(body.data.count, $0 + 65_536)])
            }
            request.body = .stream(BufferSequence(buffers: pieces), length: .unknown)
        } else {
            request.body = .bytes(body.buffer)
        }
        let response = try await live.client.execute(request, timeout: .seconds(60))
        let text = String(buffer: try await response.body.collect(upTo: 1 << 20))
        return (response, text)
    }

    @Test func largeFormUploadStreamsToDiskAndDownloadsWithRanges() async throws {
        try await withLiveServer { live in
            let store = live.context.store
            let bytes = testBytes(12 * 1024 * 1024 + 3)
            let post = store.presignPost(bucket: StorageTestContext.helppetBucket, key: "live/big.m4a", contentType: "audio/m4a",
                                         contentLength: 1...104_857_600, expiresIn: 3600, requestBaseURL: live.base)
            let (response, text) = try await postForm(live, post, file: bytes)
            #expect(response.status == .noContent, "\(text)")
            #expect(response.headers.first(name: "etag") == "\"\(md5Hex(bytes))\"")
            #expect(response.headers.first(name: "location") == "\(live.base)/storage/\(StorageTestContext.helppetBucket)/live/big.m4a")

            let get = store.presignGet(bucket: StorageTestContext.helppetBucket, key: "live/big.m4a", expiresIn: 900,
                                       overrides: .init(contentType: "audio/mp4"), requestBaseURL: live.base)
            let whole = try await live.client.execute(HTTPClientRequest(url: get.url), timeout: .seconds(60))
            #expect(whole.status == .ok)
            #expect(whole.headers.first(name: "content-type") == "audio/mp4")
            #expect(Data(try await whole.body.collect(upTo: 20 << 20).readableBytesView) == bytes)

            var ranged = HTTPClientRequest(url: get.url)
            ranged.headers.add(name: "Range", value: "bytes=1000000-1000999")
            let partial = try await live.client.execute(ranged, timeout: .seconds(60))
            #expect(partial.status == .partialContent)
            #expect(partial.headers.first(name: "content-range") == "bytes 1000000-1000999/\(bytes.count)")
            #expect(Data(try await partial.body.collect(upTo: 1 << 20).readableBytesView) == bytes[1_000_000..<1_001_000])
            #expect(live.context.temporaryFiles.isEmpty)
        }
    }

    @Test func oneByteOverThePolicyIsRefusedAndNothingIsStored() async throws {
        try await withLiveServer { live in
            let post = live.context.store.presignPost(
                bucket: StorageTestContext.helppetBucket, key: "live/limit.m4a", contentType: "audio/m4a",
                contentLength: 1...1_048_576, expiresIn: 3600, requestBaseURL: live.base)
            let (over, text) = try await postForm(live, post, file: testBytes(1_048_577))
            #expect(over.status == .badRequest)
            #expect(text.contains("<Code>EntityTooLarge</Code>"))
            #expect(live.context.objectFiles.isEmpty)
            #expect(live.context.temporaryFiles.isEmpty)

            // The same form with the limit exactly, sent with chunked encoding, is stored.
            let (exact, exactText) = try await postForm(live, post, file: testBytes(1_048_576), chunked: true)
            #expect(exact.status == .noContent, "\(exactText)")
            #expect(live.context.objectFiles == ["\(StorageTestContext.helppetBucket)/live/limit.m4a"])
        }
    }

    @Test func presignedPutOverTheNetwork() async throws {
        try await withLiveServer { live in
            let bytes = testBytes(3 * 1024 * 1024)
            let put = live.context.store.presignPut(
                bucket: StorageTestContext.autodetailBucket, key: "appointments/a/work/p.jpg", contentType: "image/jpeg",
                contentLength: Int64(bytes.count), expiresIn: 900, requestBaseURL: live.base)
            var request = HTTPClientRequest(url: put.url)
            request.method = .PUT
            request.headers.add(name: "Content-Type", value: put.headers["Content-Type"]!)
            request.body = .bytes(ByteBuffer(data: bytes))
            let response = try await live.client.execute(request, timeout: .seconds(60))
            #expect(response.status == .ok)
            #expect(response.headers.first(name: "etag") == "\"\(md5Hex(bytes))\"")

            let again = try await live.client.execute(request, timeout: .seconds(60))
            #expect(again.status == .forbidden)
            #expect(String(buffer: try await again.body.collect(upTo: 1 << 16)).contains("<Code>AccessDenied</Code>"))
        }
    }
}

/// An async sequence over buffers (a streamed request body in tests).
struct BufferSequence: AsyncSequence, Sendable {
    typealias Element = ByteBuffer
    let buffers: [ByteBuffer]

    struct AsyncIterator: AsyncIteratorProtocol {
        var iterator: IndexingIterator<[ByteBuffer]>
        mutating func next() async -> ByteBuffer? { iterator.next() }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(iterator: buffers.makeIterator()) }
}
