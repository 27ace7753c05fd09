import Foundation
import Testing
import Vapor
import VaporTesting
@testable import ObjectStorage

/// Presigned PUT through the embedded store (AutoDetail §4.5.2 / §7.4).
@Suite struct LocalStorePutTests {
    static let vectors = BotocoreVectors.of(kind: "query").filter { $0.local == true && $0.method == "PUT" }

    func put(_ context: StorageTestContext, _ url: String, body: Data, headers: [(String, String)]) async throws -> TestingHTTPResponse {
        try await context.app.testing().sendRequest(.PUT, url, headers: storageHeaders(headers), body: ByteBuffer(data: body))
    }

    func headers(_ vector: BotocoreVectors.Vector, length: Int) -> [(String, String)] {
        var result = vector.headers!.map { ($0.key, $0.value) }
        if !result.contains(where: { $0.0 == "Content-Length" }) { result.append(("Content-Length", String(length))) }
        return result
    }

    @Test(arguments: vectors)
    func botocorePutIsStoredOnce(_ vector: BotocoreVectors.Vector) async throws {
        try await withStorageApp(at: vector.signingDate.addingTimeInterval(1)) { context in
            let size = Int(vector.headers!["Content-Length"] ?? "3000")!
            let bytes = testBytes(size)
            let response = try await put(context, pathAndQuery(vector.url!), body: bytes, headers: headers(vector, length: size))
            #expect(response.status == .ok, "\(response.body.string)")
            #expect(response.headers.first(name: .eTag) == "\"\(md5Hex(bytes))\"")
            #expect(response.body.readableBytes == 0)
            let info = try #require(try await context.store.head(bucket: vector.bucket!, key: vector.key!))
            #expect(info.contentType == vector.headers!["Content-Type"])
            #expect(info.size == Int64(size))

            let again = try await put(context, pathAndQuery(vector.url!), body: testBytes(size, seed: 9), headers: headers(vector, length: size))
            #expect(again.status == .forbidden)
            #expect(again.s3ErrorCode == "AccessDenied")
            #expect(try await context.store.head(bucket: vector.bucket!, key: vector.key!)?.etag == md5Hex(bytes))
            #expect(context.temporaryFiles.isEmpty)
        }
    }

    @Test func signedHeadersMustMatch() async throws {
        let typeOnly = Self.vectors.first { $0.name == "put-local-content-type" }!
        let withLength = Self.vectors.first { $0.name == "put-local-content-type-and-length" }!
        try await withStorageApp(at: typeOnly.signingDate.addingTimeInterval(1)) { context in
            let wrongType = try await put(context, pathAndQuery(typeOnly.url!), body: testBytes(10),
                                          headers: [("Content-Type", "image/png"), ("Content-Length", "10")])
            #expect(wrongType.status == .forbidden)
            #expect(wrongType.s3ErrorCode == "SignatureDoesNotMatch")

            let wrongLength = try await put(context, pathAndQuery(withLength.url!), body: testBytes(17),
                                            headers: [("Content-Type", "image/png"), ("Content-Length", "17")])
            #expect(wrongLength.s3ErrorCode == "SignatureDoesNotMatch")

            let tampered = try await put(context, BotocoreVerifierTests.tamper(pathAndQuery(typeOnly.url!)), body: testBytes(10),
                                         headers: [("Content-Type", "image/jpeg"), ("Content-Length", "10")])
            #expect(tampered.s3ErrorCode == "SignatureDoesNotMatch")

            context.clock.advance(900)
            let expired = try await put(context, pathAndQuery(typeOnly.url!), body: testBytes(10),
                                        headers: [("Content-Type", "image/jpeg"), ("Content-Length", "10")])
            #expect(expired.status == .forbidden)
            #expect(expired.body.string.contains("Request has expired"))
            #expect(context.objectFiles.isEmpty)
        }
    }

    @Test func lengthRules() async throws {
        try await withStorageApp(autodetailLimit: 1000) { context in
            func url(_ key: String) -> String {
                pathAndQuery(context.store.presignPut(
                    bucket: StorageTestContext.autodetailBucket, key: key, contentType: "image/jpeg", contentLength: nil,
                    expiresIn: 900, requestBaseURL: "http://localhost:8080").url)
            }
            func send(_ key: String, _ body: Data, _ headers: [(String, String)]) async throws -> RawResponse {
                try await context.rawRequest(.PUT, url(key), headers: storageHeaders([("Content-Type", "image/jpeg")] + headers),
                                             body: ByteBuffer(data: body))
            }
            let missingLength = try await send("a.jpg", testBytes(10), [])
            #expect(missingLength.status == .lengthRequired)
            #expect(missingLength.s3ErrorCode == "MissingContentLength")

            let chunked = try await send("a.jpg", testBytes(10), [("Transfer-Encoding", "chunked")])
            #expect(chunked.status == .lengthRequired)

            let tooLarge = try await send("a.jpg", testBytes(10), [("Content-Length", "1001")])
            #expect(tooLarge.status == .payloadTooLarge)
            #expect(tooLarge.s3ErrorCode == "EntityTooLarge")

            let short = try await send("a.jpg", testBytes(10), [("Content-Length", "20")])
            #expect(short.status == .badRequest)
            #expect(short.s3ErrorCode == "IncompleteBody")

            let long = try await send("a.jpg", testBytes(30), [("Content-Length", "20")])
            #expect(long.s3ErrorCode == "IncompleteBody")
            #expect(context.objectFiles.isEmpty)

            let atLimit = try await send("b.jpg", testBytes(1000), [("Content-Length", "1000")])
            #expect(atLimit.status == .ok)
            #expect(context.objectFiles == ["autodetail/b.jpg"])
            #expect(context.temporaryFiles.isEmpty)
        }
    }
}
