import AppCore
import Foundation
import ObjectStorage
import ServerTestSupport
import SQLKit
import Testing
import VaporTesting

/// A deleted photo's presigned PUT stays valid for up to 15 minutes, but must not re-create an
/// object that belongs to nothing. The embedded store refuses it (403 `AccessDenied`: the key has no upload row
/// any more); on S3, which cannot refuse, the upload cleanup removes the key again once the URL has expired.
@Suite struct DeletedPhotoUploadTests {
    /// Presign, PUT and link one work photo; returns the presign answer, the object key and the photo id.
    static func linkedPhoto(
        _ app: Application, appointment: String, put: (TestResponse) async throws -> HTTPStatus,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> (presigned: TestResponse, objectKey: String, photoID: String) {
        let presigned = try await PhotoFlow.presign(app, key: app.orgKey, appointment: appointment)
        #expect(presigned.status == .ok, "\(presigned)", sourceLocation: sourceLocation)
        #expect(try await put(presigned) == .ok, sourceLocation: sourceLocation)
        let ref = try #require(presigned.json["ref"].string, sourceLocation: sourceLocation)
        let linked = try await PhotoFlow.link(app, key: app.orgKey, appointment: appointment, refs: [ref])
        #expect(linked.status == .ok, "\(linked)", sourceLocation: sourceLocation)
        let photoID = try #require(linked.json["workPhotos"][0]["id"].string, sourceLocation: sourceLocation)
        return (presigned, String(ref.dropFirst(3)), photoID)
    }

    static func deletePhoto(_ app: Application, appointment: String, photoID: String) async throws {
        let admin = try await app.adminToken()
        let deleted = try await app.delete("/api/admin/appointments/\(appointment)/photos/\(photoID)", bearer: admin)
        #expect(deleted.status == .noContent, "\(deleted)")
    }

    @Test func aDeletedPhotosUploadURLCannotRecreateItsObject() async throws {
        let clock = Fixture.clock()
        try await withTestApp(clock: clock) { app in
            let appointment = try await app.book(PhotoTests.start, key: app.orgKey)
            let photo = try await Self.linkedPhoto(app, appointment: appointment) {
                try await PhotoFlow.put(app, $0, bytes: testBytes(1_000)).status
            }
            try await Self.deletePhoto(app, appointment: appointment, photoID: photo.photoID)
            #expect(try await app.objectStore.head(bucket: "autodetail", key: photo.objectKey) == nil)

            clock.advance(by: 60)  // the URL is still valid for 14 minutes
            let again = try await PhotoFlow.put(app, photo.presigned, bytes: testBytes(1_000, seed: 3))
            #expect(again.status == .forbidden, "\(again)")
            #expect(again.text.contains("<Code>AccessDenied</Code>") && again.text.contains("No upload is expected for this key."))
            #expect(try await app.objectStore.head(bucket: "autodetail", key: photo.objectKey) == nil)

            // An upload row that is not linked yet is still accepted while its URL lives.
            let open = try await PhotoFlow.presign(app, key: app.orgKey, appointment: appointment)
            #expect(try await PhotoFlow.put(app, open, bytes: testBytes(10)).status == .ok)
        }
    }

    /// S3 (moto) accepts the deleted photo's URL: the hourly cleanup removes the object once the URL has expired.
    @Test(.enabled(if: MotoS3.isAvailable, "moto is unavailable (pip install 'moto[server]'); .ci/run installs it"))
    func onS3TheCleanupRemovesWhatADeletedPhotosURLRecreated() async throws {
        let moto = try await MotoS3.start(buckets: ["helppetai-visit-recordings", "autodetail"])
        do {
            let clock = Fixture.clock()
            try await withTestApp(env: moto.environment, clock: clock) { app in
                let appointment = try await app.book(PhotoTests.start, key: app.orgKey)
                let putToS3: (TestResponse) async throws -> HTTPStatus = { presigned in
                    let url = try #require(presigned.json["uploadUrl"].string)
                    #expect(url.hasPrefix("\(moto.endpoint)/autodetail/"), "\(url)")
                    return try await moto.send(
                        .PUT, url: url, headers: [("Content-Type", "image/jpeg")], body: Array(testBytes(800))
                    ).status
                }
                let photo = try await Self.linkedPhoto(app, appointment: appointment, put: putToS3)
                let head = { try await app.objectStore.head(bucket: "autodetail", key: photo.objectKey) }
                try await Self.deletePhoto(app, appointment: appointment, photoID: photo.photoID)
                #expect(try await head() == nil)

                // S3 accepts the still-valid URL: the object is back, belonging to nothing.
                #expect(try await putToS3(photo.presigned) == .ok)
                #expect(try await head() != nil)
                try await UploadCleanupProbe.run(app)
                #expect(try await head() != nil, "not before the URL has expired (an upload may be under way)")

                clock.advance(by: 900 + 15 * 60 + 1)
                try await UploadCleanupProbe.run(app)
                #expect(try await head() == nil)
                #expect(try await app.count("SELECT COUNT(*) AS n FROM ad_object_purges") == 0)
            }
        } catch {
            await moto.stop()
            throw error
        }
        await moto.stop()
    }
}
