import Foundation
import NIOConcurrencyHelpers
import Testing
import Vapor
import VaporTesting
@testable import ObjectStorage

/// The per-bucket `UploadAdmission` hook of the embedded store: a correctly signed upload is
/// still refused with 403 `AccessDenied` when the product that issued the URL no longer expects that key, asked
/// before a byte is stored and again just before the object is published; a bucket without a rule admits all.
@Suite struct UploadAdmissionTests {
    static let noUploadExpected = "Access Denied. No upload is expected for this key."

    /// The rule a product plugs in, reduced to its answer: the keys it still expects (HelpPet answers from its
    /// upload intents, AutoDetail from its upload rows; their own suites test those end to end).
    struct ExpectedKeys: UploadAdmission {
        let keys: Set<String>
        func admitsUpload(bucket: String, key: String) async throws -> Bool { keys.contains(key) }
    }

    /// A rule that cannot decide (its database is down).
    struct Undecidable: UploadAdmission {
        struct Down: Error {}
        func admitsUpload(bucket: String, key: String) async throws -> Bool { throw Down() }
    }

    /// Admits the first question only: the record is deleted while the file streams in.
    final class DeletedWhileUploading: UploadAdmission {
        let asked = NIOLockedValueBox(0)
        func admitsUpload(bucket: String, key: String) async throws -> Bool {
            asked.withLockedValue { $0 += 1; return $0 == 1 }
        }
    }

    func postForm(_ context: StorageTestContext, key: String, bytes: Data) async throws -> TestingHTTPResponse {
        let post = context.store.presignPost(
            bucket: StorageTestContext.helppetBucket, key: key, contentType: "audio/m4a", contentLength: 1...1000,
            expiresIn: 3600, requestBaseURL: "http://\(StorageTestContext.host)")
        let body = MultipartFormBody.form(fields: post.fields.map { ($0.name, $0.value) }, file: bytes)
        return try await context.app.testing().sendRequest(
            .POST, pathAndQuery(post.url), headers: storageHeaders([("Content-Type", body.contentType)]), body: body.buffer)
    }

    func put(_ context: StorageTestContext, key: String, bytes: Data) async throws -> TestingHTTPResponse {
        let put = context.store.presignPut(
            bucket: StorageTestContext.autodetailBucket, key: key, contentType: "image/jpeg",
            contentLength: Int64(bytes.count), expiresIn: 900, requestBaseURL: "http://\(StorageTestContext.host)")
        return try await context.app.testing().sendRequest(
            .PUT, pathAndQuery(put.url),
            headers: storageHeaders([("Content-Type", "image/jpeg"), ("Content-Length", String(bytes.count))]),
            body: ByteBuffer(data: bytes))
    }

    @Test func aPostFormForAKeyNoLongerExpectedIsRefusedAndStoresNothing() async throws {
        try await withStorageApp { context in
            context.store.uploadAdmissions.register(
                ExpectedKeys(keys: ["visit-recordings/live.m4a"]), forBucket: StorageTestContext.helppetBucket)
            let refused = try await postForm(context, key: "visit-recordings/deleted.m4a", bytes: testBytes(100))
            #expect(refused.status == .forbidden)
            #expect(refused.s3ErrorCode == "AccessDenied")
            #expect(refused.body.string.contains(Self.noUploadExpected), "\(refused.body.string)")
            #expect(refused.headers.contentType?.description.hasPrefix("application/xml") == true)
            #expect(try await context.store.head(bucket: StorageTestContext.helppetBucket, key: "visit-recordings/deleted.m4a") == nil)

            let stored = try await postForm(context, key: "visit-recordings/live.m4a", bytes: testBytes(100))
            #expect(stored.status == .noContent, "\(stored.body.string)")
            #expect(context.objectFiles == ["\(StorageTestContext.helppetBucket)/visit-recordings/live.m4a"])
            #expect(context.temporaryFiles.isEmpty)
        }
    }

    @Test func aPresignedPutForAKeyNoLongerExpectedIsRefusedAndStoresNothing() async throws {
        try await withStorageApp { context in
            context.store.uploadAdmissions.register(
                ExpectedKeys(keys: ["appointments/live.jpg"]), forBucket: StorageTestContext.autodetailBucket)
            let refused = try await put(context, key: "appointments/deleted.jpg", bytes: testBytes(50))
            #expect(refused.status == .forbidden)
            #expect(refused.s3ErrorCode == "AccessDenied")
            #expect(refused.body.string.contains(Self.noUploadExpected))
            let stored = try await put(context, key: "appointments/live.jpg", bytes: testBytes(50))
            #expect(stored.status == .ok, "\(stored.body.string)")
            #expect(context.objectFiles == ["\(StorageTestContext.autodetailBucket)/appointments/live.jpg"])
        }
    }

    @Test func aBucketWithoutARuleAdmitsEverySignedUpload() async throws {
        try await withStorageApp { context in
            context.store.uploadAdmissions.register(ExpectedKeys(keys: []), forBucket: StorageTestContext.helppetBucket)
            let stored = try await put(context, key: "appointments/any.jpg", bytes: testBytes(20))
            #expect(stored.status == .ok, "the rule of one bucket does not apply to another")
        }
    }

    @Test func aRuleThatCannotDecideAnswers503AndStoresNothing() async throws {
        try await withStorageApp { context in
            context.store.uploadAdmissions.register(Undecidable(), forBucket: StorageTestContext.helppetBucket)
            context.store.uploadAdmissions.register(Undecidable(), forBucket: StorageTestContext.autodetailBucket)
            let post = try await postForm(context, key: "visit-recordings/a.m4a", bytes: testBytes(10))
            #expect(post.status == .serviceUnavailable)
            #expect(post.s3ErrorCode == "ServiceUnavailable")
            let put = try await put(context, key: "appointments/a.jpg", bytes: testBytes(10))
            #expect(put.status == .serviceUnavailable)
            #expect(context.objectFiles.isEmpty)
            #expect(context.temporaryFiles.isEmpty)
        }
    }

    /// The record is deleted while the file streams in: the second question, just before publishing, refuses it.
    @Test func theRuleIsAskedAgainBeforeTheObjectIsPublished() async throws {
        try await withStorageApp { context in
            let postRule = DeletedWhileUploading()
            let putRule = DeletedWhileUploading()
            context.store.uploadAdmissions.register(postRule, forBucket: StorageTestContext.helppetBucket)
            context.store.uploadAdmissions.register(putRule, forBucket: StorageTestContext.autodetailBucket)
            let post = try await postForm(context, key: "visit-recordings/b.m4a", bytes: testBytes(300))
            #expect(post.status == .forbidden)
            #expect(post.s3ErrorCode == "AccessDenied")
            #expect(postRule.asked.withLockedValue { $0 } == 2)
            let put = try await put(context, key: "appointments/b.jpg", bytes: testBytes(300))
            #expect(put.status == .forbidden)
            #expect(putRule.asked.withLockedValue { $0 } == 2)
            #expect(context.objectFiles.isEmpty)
            #expect(context.temporaryFiles.isEmpty, "the half-stored files are removed")
        }
    }
}
