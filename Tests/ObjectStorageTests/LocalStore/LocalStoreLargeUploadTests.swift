import AsyncHTTPClient
import Crypto
import Foundation
import NIOCore
import Testing
import Vapor
@testable import ObjectStorage

/// A 100 MiB form upload over loopback with the body generated on the fly, checking that the server's memory
/// does not grow with the file (it streams to disk). Opt-in (`OBJECTSTORAGE_LARGE_UPLOAD=1`) because it writes
/// 100 MiB; the release-build benchmark in `bench/` measures the same for the whole server.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["OBJECTSTORAGE_LARGE_UPLOAD"] == "1",
                "set OBJECTSTORAGE_LARGE_UPLOAD=1 to upload 100 MiB through the embedded store"))
struct LocalStoreLargeUploadTests {
    /// Generates the multipart body: the form fields, `size` file bytes in 64 KiB chunks, the closing delimiter.
    struct GeneratedForm: AsyncSequence, Sendable {
        typealias Element = ByteBuffer
        let head: ByteBuffer
        let tail: ByteBuffer
        let size: Int

        struct AsyncIterator: AsyncIteratorProtocol {
            let form: GeneratedForm
            var sent = -1
            mutating func next() async -> ByteBuffer? {
                if sent == -1 { sent = 0; return form.head }
                if sent < form.size {
                    let count = Swift.min(65_536, form.size - sent)
                    var buffer = ByteBufferAllocator().buffer(capacity: count)
                    buffer.writeRepeatingByte(UInt8(truncatingIfNeeded: sent / 65_536), count: count)
                    sent += count
                    return buffer
                }
                if sent == form.size { sent += 1; return form.tail }
                return nil
            }
        }

        func makeAsyncIterator() -> AsyncIterator { AsyncIterator(form: self) }

        var md5: String {
            var hash = Insecure.MD5()
            var offset = 0
            while offset < size {
                let count = Swift.min(65_536, size - offset)
                hash.update(data: Data(repeating: UInt8(truncatingIfNeeded: offset / 65_536), count: count))
                offset += count
            }
            return hash.finalize().map { String(format: "%02x", $0) }.joined()
        }
    }

    static func residentBytes() -> Int {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return (Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0) * 1024
    }

    @Test func hundredMebibyteUploadKeepsMemoryFlat() async throws {
        try await withStorageApp(at: Date()) { context in
            try await context.app.asyncBoot()
            try await context.app.http.server.shared.start(address: .hostname("127.0.0.1", port: 0))
            let port = try #require(context.app.http.server.shared.localAddress?.port)
            let client = HTTPClient(eventLoopGroupProvider: .singleton)
            let base = "http://127.0.0.1:\(port)"
            let size = 104_857_600
            let post = context.store.presignPost(
                bucket: StorageTestContext.helppetBucket, key: "large/100mib.m4a", contentType: "audio/m4a",
                contentLength: 1...Int64(size), expiresIn: 3600, requestBaseURL: base)
            var head = MultipartFormBody()
            for field in post.fields { head.addField(field.name, field.value) }
            let boundary = head.boundary
            var headData = head.data
            headData += Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"a.m4a\"\r\n\r\n".utf8)
            let tail = ByteBuffer(string: "\r\n--\(boundary)--\r\n")
            let form = GeneratedForm(head: ByteBuffer(data: headData), tail: tail, size: size)

            var request = HTTPClientRequest(url: post.url)
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "multipart/form-data; boundary=\(boundary)")
            request.body = .stream(form, length: .known(Int64(headData.count + size + tail.readableBytes)))

            let baseline = Self.residentBytes()
            let sampler = Task {
                var peak = 0
                while !Task.isCancelled {
                    peak = Swift.max(peak, Self.residentBytes())
                    try? await Task.sleep(nanoseconds: 50_000_000)
                }
                return peak
            }
            let started = ContinuousClock.now
            let response = try await client.execute(request, timeout: .seconds(600))
            let elapsed = ContinuousClock.now - started
            sampler.cancel()
            let peak = await sampler.value
            #expect(response.status == .noContent)
            #expect(response.headers.first(name: "etag") == "\"\(form.md5)\"")
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            let growth = max(0, peak - baseline)
            print("100 MiB form upload: \(String(format: "%.1f", Double(size) / 1_048_576 / seconds)) MiB/s, "
                  + "RSS growth \(growth / 1_048_576) MiB (client and server in one process)")
            #expect(growth < 64 * 1_048_576)
            try await client.shutdown()
            await context.app.http.server.shared.shutdown()
        }
    }
}
