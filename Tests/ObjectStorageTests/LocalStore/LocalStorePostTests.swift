import Foundation
import Testing
import Vapor
import VaporTesting
@testable import ObjectStorage

/// Presigned POST uploads through the embedded store's HTTP route (contract §7.3).
@Suite struct LocalStorePostTests {
    static let localPosts = BotocoreVectors.of(kind: "post").filter { $0.local == true }

    func form(_ vector: BotocoreVectors.Vector, file: Data?, change: (inout [(String, String)]) -> Void = { _ in }) -> MultipartFormBody {
        var fields = vector.fields!.map { ($0.name, $0.value) }
        change(&fields)
        return MultipartFormBody.form(fields: fields, file: file)
    }

    func post(_ context: StorageTestContext, _ vector: BotocoreVectors.Vector, _ body: MultipartFormBody,
              path: String? = nil, headers extra: [(String, String)] = []) async throws -> TestingHTTPResponse {
        var headers = storageHeaders([("Content-Type", body.contentType), ("Content-Length", String(body.data.count))])
        for (name, value) in extra { headers.replaceOrAdd(name: name, value: value) }
        return try await context.app.testing().sendRequest(
            .POST, path ?? pathAndQuery(vector.url!), headers: headers, body: body.buffer)
    }

    @Test(arguments: localPosts)
    func botocoreFormIsStored(_ vector: BotocoreVectors.Vector) async throws {
        try await withStorageApp(at: vector.signingDate.addingTimeInterval(60)) { context in
            // The body size is part of the policy: one byte outside the range on either side is refused.
            let range = vector.content_length_range!
            let below = try await post(context, vector, form(vector, file: testBytes(Int(range[0]) - 1)))
            #expect(below.status == .badRequest)
            #expect(below.s3ErrorCode == "EntityTooSmall")
            if range[1] <= 16 * 1_048_576 {
                let above = try await post(context, vector, form(vector, file: testBytes(Int(range[1]) + 1)))
                #expect(above.status == .badRequest)
                #expect(above.s3ErrorCode == "EntityTooLarge")
            }
            #expect(context.objectFiles.isEmpty)

            let file = testBytes(Int(vector.valid_size!))
            let response = try await post(context, vector, form(vector, file: file))
            #expect(response.status == .noContent, "\(response.body.string)")
            #expect(response.headers.first(name: .eTag) == "\"\(md5Hex(file))\"")
            #expect(response.headers.first(name: .location)
                == "http://localhost:8080/storage/\(vector.bucket!)/\(AWSURIEncoding.encodePath(vector.key!))")

            let info = try #require(try await context.store.head(bucket: vector.bucket!, key: vector.key!))
            #expect(info.size == Int64(file.count))
            #expect(info.etag == md5Hex(file))
            #expect(info.contentType == vector.fields!.first { $0.name == "Content-Type" }!.value)
            #expect(context.temporaryFiles.isEmpty)

            // Write-once: the same still-valid form cannot replace the object.
            let second = try await post(context, vector, form(vector, file: testBytes(Int(vector.valid_size!), seed: 7)))
            #expect(second.status == .forbidden)
            #expect(second.s3ErrorCode == "AccessDenied")
            #expect(try await context.store.head(bucket: vector.bucket!, key: vector.key!)?.etag == md5Hex(file))
            #expect(context.temporaryFiles.isEmpty)
        }
    }

    @Test func fileSizeLimitsOfThePolicy() async throws {
        let vector = Self.localPosts.first { $0.name == "post-local-small-range" }!  // content-length-range 4...16
        try await withStorageApp(at: vector.signingDate.addingTimeInterval(60)) { context in
            let tooLarge = try await post(context, vector, form(vector, file: testBytes(17)))
            #expect(tooLarge.status == .badRequest)
            #expect(tooLarge.s3ErrorCode == "EntityTooLarge")
            let tooSmall = try await post(context, vector, form(vector, file: testBytes(3)))
            #expect(tooSmall.status == .badRequest)
            #expect(tooSmall.s3ErrorCode == "EntityTooSmall")
            #expect(context.objectFiles.isEmpty)
            #expect(context.temporaryFiles.isEmpty)
            #expect(try await context.store.head(bucket: vector.bucket!, key: vector.key!) == nil)

            let exact = try await post(context, vector, form(vector, file: testBytes(4)))
            #expect(exact.status == .noContent)
        }
    }

    @Test func tamperedExpiredAndEarlyFormsAreRefused() async throws {
        let vector = Self.localPosts.first { $0.name == "post-local-helppet" }!
        try await withStorageApp(at: vector.signingDate.addingTimeInterval(60)) { context in
            let file = testBytes(100)
            let tamperedSignature = try await post(context, vector, form(vector, file: file) { fields in
                let i = fields.firstIndex { $0.0 == "x-amz-signature" }!
                fields[i].1 = BotocoreVerifierTests.tamper(fields[i].1)
            })
            #expect(tamperedSignature.status == .forbidden)
            #expect(tamperedSignature.s3ErrorCode == "SignatureDoesNotMatch")

            let otherKey = try await post(context, vector, form(vector, file: file) { fields in
                fields[fields.firstIndex { $0.0 == "key" }!].1 = "visit-recordings/other.m4a"
            })
            #expect(otherKey.status == .forbidden)
            #expect(otherKey.s3ErrorCode == "AccessDenied")
            #expect(otherKey.body.string.contains("Invalid according to Policy: Policy Condition failed"))

            let otherType = try await post(context, vector, form(vector, file: file) { fields in
                fields[fields.firstIndex { $0.0 == "Content-Type" }!].1 = "text/html"
            })
            #expect(otherType.s3ErrorCode == "AccessDenied")

            let extraField = try await post(context, vector, form(vector, file: file) { $0.append(("acl", "public-read")) })
            #expect(extraField.s3ErrorCode == "AccessDenied")
            #expect(extraField.body.string.contains("Extra input fields: acl"))

            let otherBucket = try await post(context, vector, form(vector, file: file),
                                             path: "/storage/\(StorageTestContext.autodetailBucket)/")
            #expect(otherBucket.s3ErrorCode == "AccessDenied")

            context.clock.advance(3600)
            let expired = try await post(context, vector, form(vector, file: file))
            #expect(expired.status == .forbidden)
            #expect(expired.body.string.contains("Invalid according to Policy: Policy expired."))

            context.clock.set(vector.signingDate.addingTimeInterval(-901))
            let early = try await post(context, vector, form(vector, file: file))
            #expect(early.status == .forbidden)
            #expect(early.body.string.contains("Request is not yet valid"))

            #expect(context.objectFiles.isEmpty)
            #expect(context.temporaryFiles.isEmpty)
        }
    }

    @Test func requestShapeErrors() async throws {
        let vector = Self.localPosts.first { $0.name == "post-local-helppet" }!
        try await withStorageApp(at: vector.signingDate.addingTimeInterval(60)) { context in
            let file = testBytes(10)
            let unknownBucket = try await post(context, vector, form(vector, file: file), path: "/storage/no-such-bucket/")
            #expect(unknownBucket.status == .notFound)
            #expect(unknownBucket.s3ErrorCode == "NoSuchBucket")
            #expect(unknownBucket.headers.first(name: .contentType) == "application/xml")
            #expect(unknownBucket.body.string == "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>NoSuchBucket</Code><Message>The specified bucket does not exist</Message><RequestId>test-request-id</RequestId></Error>")

            let oversized = form(vector, file: file)
            let declaredTooLarge = try await context.rawRequest(
                .POST, pathAndQuery(vector.url!),
                headers: storageHeaders([("Content-Type", oversized.contentType), ("Content-Length", "105906177")]),
                body: oversized.buffer)
            #expect(declaredTooLarge.status == .payloadTooLarge)
            #expect(declaredTooLarge.s3ErrorCode == "EntityTooLarge")

            let notMultipart = try await post(context, vector, form(vector, file: file),
                                              headers: [("Content-Type", "application/x-www-form-urlencoded")])
            #expect(notMultipart.status == .badRequest)
            #expect(notMultipart.s3ErrorCode == "InvalidArgument")

            let noFile = try await post(context, vector, form(vector, file: nil))
            #expect(noFile.status == .badRequest)
            #expect(noFile.s3ErrorCode == "InvalidArgument")

            let noPolicy = try await post(context, vector, form(vector, file: file) { $0.removeAll { $0.0 == "policy" } })
            #expect(noPolicy.status == .badRequest)
            #expect(noPolicy.body.string.contains("'policy'"))

            let duplicate = try await post(context, vector, form(vector, file: file) { $0.insert(("Key", "x/y"), at: 0) })
            #expect(duplicate.status == .badRequest)
            #expect(duplicate.s3ErrorCode == "InvalidArgument")

            var garbage = MultipartFormBody()
            garbage.addField("key", "x")
            let broken = try await post(context, vector, garbage)  // no closing delimiter, no file
            #expect(broken.status == .badRequest)

            #expect(context.objectFiles.isEmpty)
            #expect(context.temporaryFiles.isEmpty)
        }
    }

    @Test func caseInsensitiveFieldNamesAndPartsAfterFile() async throws {
        let vector = Self.localPosts.first { $0.name == "post-local-helppet" }!
        try await withStorageApp(at: vector.signingDate.addingTimeInterval(60)) { context in
            let file = testBytes(2048)
            let fields = vector.fields!.map { ($0.name.uppercased(), $0.value) }
            let body = MultipartFormBody.form(fields: fields, file: file, fieldsAfterFile: [("acl", "public-read")])
            let response = try await post(context, vector, body)
            #expect(response.status == .noContent, "\(response.body.string)")
            #expect(try await context.store.head(bucket: vector.bucket!, key: vector.key!)?.size == 2048)
        }
    }

    @Test func unsafeKeysAreRefusedEvenWhenSigned() async throws {
        try await withStorageApp { context in
            for key in ["a/../b.m4a", "a//b.m4a", "a\\b.m4a", "./a.m4a", "a/"] {
                let post = context.store.presignPost(
                    bucket: StorageTestContext.helppetBucket, key: key, contentType: "audio/m4a", contentLength: 1...100,
                    expiresIn: 3600, requestBaseURL: "http://localhost:8080")
                let body = MultipartFormBody.form(fields: post.fields.map { ($0.name, $0.value) }, file: testBytes(5))
                let response = try await context.app.testing().sendRequest(
                    .POST, pathAndQuery(post.url), headers: storageHeaders([("Content-Type", body.contentType)]), body: body.buffer)
                #expect(response.status == .badRequest, "\(key)")
                #expect(response.s3ErrorCode == "InvalidArgument", "\(key)")
            }
            #expect(context.objectFiles.isEmpty)
        }
    }
}
