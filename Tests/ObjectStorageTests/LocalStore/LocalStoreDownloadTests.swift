import Foundation
import Testing
import Vapor
import VaporTesting
@testable import ObjectStorage

/// Presigned GET and HEAD through the embedded store (contract §7.4), including botocore's URLs replayed as-is.
@Suite struct LocalStoreDownloadTests {
    static let bucket = StorageTestContext.helppetBucket

    /// Stores `bytes` at `key` through the store's own `put`.
    func store(_ context: StorageTestContext, key: String, bytes: Data, contentType: String = "audio/m4a",
               bucket: String = bucket) async throws -> ObjectInfo {
        let file = context.directory.url.deletingLastPathComponent().appendingPathComponent("source-\(UUID().uuidString)")
        try bytes.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return try await context.store.put(bucket: bucket, key: key, file: file, size: Int64(bytes.count), contentType: contentType)
    }

    func presignedGet(_ context: StorageTestContext, key: String, expiresIn: Int = 900,
                      overrides: ResponseOverrides = .init(), method: String = "GET") -> String {
        let request = method == "HEAD"
            ? context.store.presignHead(bucket: Self.bucket, key: key, expiresIn: expiresIn, requestBaseURL: "http://localhost:8080")
            : context.store.presignGet(bucket: Self.bucket, key: key, expiresIn: expiresIn, overrides: overrides,
                                       requestBaseURL: "http://localhost:8080")
        return pathAndQuery(request.url)
    }

    @Test(arguments: BotocoreVectors.of(kind: "query").filter { $0.local == true && $0.method != "PUT" })
    func botocoreURLServesTheObject(_ vector: BotocoreVectors.Vector) async throws {
        try await withStorageApp(at: vector.signingDate.addingTimeInterval(1)) { context in
            let bytes = testBytes(5000)
            let info = try await store(context, key: vector.key!, bytes: bytes)
            let response = try await context.app.testing().sendRequest(
                HTTPMethod(rawValue: vector.method!), pathAndQuery(vector.url!), headers: storageHeaders())
            #expect(response.status == .ok, "\(response.body.string)")
            #expect(response.headers.first(name: .contentLength) == "5000")
            #expect(response.headers.first(name: .eTag) == info.quotedETag)
            #expect(response.headers.first(name: .acceptRanges) == "bytes")
            #expect(response.headers.first(name: .cacheControl) == "private, max-age=3600")
            #expect(response.headers.first(name: .lastModified) == HTTPDate.format(info.lastModified))
            #expect(response.headers.first(name: .contentType) == vector.overrides?["ResponseContentType"] ?? "audio/m4a")
            #expect(response.headers.first(name: .contentDisposition) == vector.overrides?["ResponseContentDisposition"])
            if vector.method == "HEAD" {
                #expect(response.body.readableBytes == 0)
            } else {
                #expect(Data(response.body.readableBytesView) == bytes)
            }

            // The same URL after it expired, and one byte of the signature changed.
            context.clock.advance(TimeInterval(vector.expires_in!))
            let expired = try await context.app.testing().sendRequest(
                HTTPMethod(rawValue: vector.method!), pathAndQuery(vector.url!), headers: storageHeaders())
            #expect(expired.status == .forbidden)
            if vector.method == "GET" { #expect(expired.body.string.contains("Request has expired")) }
            context.clock.set(vector.signingDate)
            let tampered = try await context.app.testing().sendRequest(
                HTTPMethod(rawValue: vector.method!), BotocoreVerifierTests.tamper(pathAndQuery(vector.url!)),
                headers: storageHeaders())
            #expect(tampered.status == .forbidden)
            let otherHost = try await context.app.testing().sendRequest(
                HTTPMethod(rawValue: vector.method!), pathAndQuery(vector.url!), headers: HTTPHeaders([("Host", "evil.example:8080")]))
            #expect(otherHost.status == .forbidden)
        }
    }

    @Test func rangeRequests() async throws {
        try await withStorageApp { context in
            let bytes = testBytes(1000)
            _ = try await store(context, key: "r/object.m4a", bytes: bytes)
            let url = presignedGet(context, key: "r/object.m4a")
            func get(_ range: String?, method: HTTPMethod = .GET) async throws -> TestingHTTPResponse {
                try await context.app.testing().sendRequest(
                    method, method == .HEAD ? presignedGet(context, key: "r/object.m4a", method: "HEAD") : url,
                    headers: storageHeaders(range.map { [("Range", $0)] } ?? []))
            }
            let first = try await get("bytes=0-9")
            #expect(first.status == .partialContent)
            #expect(first.headers.first(name: .contentRange) == "bytes 0-9/1000")
            #expect(first.headers.first(name: .contentLength) == "10")
            #expect(Data(first.body.readableBytesView) == bytes[0..<10])

            let open = try await get("bytes=990-")
            #expect(open.headers.first(name: .contentRange) == "bytes 990-999/1000")
            #expect(Data(open.body.readableBytesView) == bytes[990..<1000])

            let suffix = try await get("bytes=-5")
            #expect(suffix.status == .partialContent)
            #expect(Data(suffix.body.readableBytesView) == bytes[995..<1000])

            let clamped = try await get("bytes=500-5000")
            #expect(clamped.headers.first(name: .contentRange) == "bytes 500-999/1000")

            let unsatisfiable = try await get("bytes=1000-")
            #expect(unsatisfiable.status == .rangeNotSatisfiable)
            #expect(unsatisfiable.headers.first(name: .contentRange) == "bytes */1000")
            #expect(unsatisfiable.s3ErrorCode == "InvalidRange")

            let multi = try await get("bytes=0-1,5-6")
            #expect(multi.status == .ok)
            #expect(multi.headers.first(name: .contentLength) == "1000")

            let head = try await get("bytes=0-99", method: .HEAD)
            #expect(head.status == .partialContent)
            #expect(head.headers.first(name: .contentLength) == "100")
            #expect(head.body.readableBytes == 0)
        }
    }

    @Test func errorsInContractOrder() async throws {
        try await withStorageApp { context in
            let tester = try context.app.testing()
            _ = try await store(context, key: "e/object.m4a", bytes: testBytes(10))
            let valid = presignedGet(context, key: "e/object.m4a")

            let missing = try await tester.sendRequest(.GET, presignedGet(context, key: "e/missing.m4a"), headers: storageHeaders())
            #expect(missing.status == .notFound)
            #expect(missing.s3ErrorCode == "NoSuchKey")

            let noAuth = try await tester.sendRequest(.GET, "/storage/\(Self.bucket)/e/object.m4a", headers: storageHeaders())
            #expect(noAuth.status == .forbidden)
            #expect(noAuth.s3ErrorCode == "AccessDenied")

            let partialAuth = try await tester.sendRequest(
                .GET, valid.replacingOccurrences(of: "X-Amz-Expires=900&", with: ""), headers: storageHeaders())
            #expect(partialAuth.status == .badRequest)
            #expect(partialAuth.s3ErrorCode == "AuthorizationQueryParametersError")

            let unknownBucket = try await tester.sendRequest(
                .GET, valid.replacingOccurrences(of: Self.bucket, with: "other-bucket"), headers: storageHeaders())
            #expect(unknownBucket.s3ErrorCode == "NoSuchBucket")

            for unsafe in ["e/%2E%2E/object.m4a", "e//object.m4a", "e/%5Cobject.m4a", "e/ob%00ject.m4a", "e/./object.m4a"] {
                let response = try await tester.sendRequest(.GET, "/storage/\(Self.bucket)/\(unsafe)?X-Amz-Algorithm=x", headers: storageHeaders())
                #expect(response.status == .badRequest, "\(unsafe)")
                #expect(response.s3ErrorCode == "InvalidArgument", "\(unsafe)")
            }

            for (method, path) in [(HTTPMethod.DELETE, valid), (.PATCH, valid), (.POST, valid), (.OPTIONS, valid),
                                   (.GET, "/storage/\(Self.bucket)/"), (.PUT, "/storage/\(Self.bucket)"),
                                   (.DELETE, "/storage/\(Self.bucket)/")] {
                let response = try await tester.sendRequest(method, path, headers: storageHeaders())
                #expect(response.status == .methodNotAllowed, "\(method) \(path)")
                #expect(response.s3ErrorCode == "MethodNotAllowed", "\(method) \(path)")
            }

            let early = context.store.presignGet(bucket: Self.bucket, key: "e/object.m4a", expiresIn: 900, overrides: .init(),
                                                 requestBaseURL: "http://localhost:8080")
            context.clock.advance(-901)
            let notYet = try await tester.sendRequest(.GET, pathAndQuery(early.url), headers: storageHeaders())
            #expect(notYet.status == .forbidden)
            #expect(notYet.body.string.contains("Request is not yet valid"))
        }
    }

    @Test func storedContentTypeAndOverrides() async throws {
        try await withStorageApp { context in
            _ = try await store(context, key: "t/photo.jpg", bytes: testBytes(10), contentType: "image/jpeg")
            let plain = try await context.app.testing().sendRequest(.GET, presignedGet(context, key: "t/photo.jpg"), headers: storageHeaders())
            #expect(plain.headers.first(name: .contentType) == "image/jpeg")
            #expect(plain.headers.first(name: .contentDisposition) == nil)
            let disposition = "inline; filename=\"B_lla.jpg\"; filename*=UTF-8''B%C3%A9lla.jpg"
            let overridden = try await context.app.testing().sendRequest(
                .GET, presignedGet(context, key: "t/photo.jpg", overrides: .init(contentType: "image/png", contentDisposition: disposition)),
                headers: storageHeaders())
            #expect(overridden.headers.first(name: .contentType) == "image/png")
            #expect(overridden.headers.first(name: .contentDisposition) == disposition)
        }
    }
}
