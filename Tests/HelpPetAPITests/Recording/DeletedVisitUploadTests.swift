import AppCore
import Foundation
@testable import HelpPetAPI
import ServerTestSupport
import SQLKit
import Testing
import VaporTesting

/// A deleted visit's presigned POST stays valid for up to an hour, but must not re-create an
/// object that belongs to nothing. The embedded store refuses it (403 `AccessDenied`: the key has no live upload
/// intent any more); on S3, which cannot refuse, the reconciler removes what lands under a deleted visit's keys
/// once their URLs have expired (docs/recording-safety.md).
@Suite struct DeletedVisitUploadTests {
    typealias F = RecordingFixtures

    @Test func aDeletedVisitsUploadURLCannotRecreateItsRecording() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let started = try await F.initiated(app, vet, pet: Demo.pet(1), appointment: Demo.appointmentID(1, app))
            try await F.upload(app, started, bytes: F.bytes(500))
            #expect(try await F.complete(app, vet, started.visitID).status == .ok)
            try await F.deleteVisit(app, started.visitID)
            #expect(await F.eventually { !F.objectExists(app, key: started.key) }, "the delete removes the object")

            let again = try await F.uploadToPresignedPost(app, started.response, bytes: F.bytes(500, seed: 9))
            #expect(again.status == .forbidden, "\(again)")
            #expect(F.s3ErrorCode(again) == "AccessDenied")
            #expect(again.text.contains("No upload is expected for this key."))
            #expect(!F.objectExists(app, key: started.key))
            #expect(F.storedKeys(app, pet: Demo.pet(1)).isEmpty)
            #expect(F.temporaryFiles(app).isEmpty)
            // The intent stays behind, dead, for the reconciler's clean-up.
            #expect(try await F.intent(app, key: started.key)?.visitID == nil)
        }
    }

    /// A visit deleted before anything was uploaded (by an admin, or with its pet removed from the appointment).
    @Test func aPendingVisitDeletedBeforeItsUploadRefusesTheUpload() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let appointment = Demo.appointmentID(1, app)
            let deleted = try await F.initiated(app, vet, pet: Demo.pet(2), appointment: appointment)
            try await F.deleteVisit(app, deleted.visitID)
            let refused = try await F.uploadToPresignedPost(app, deleted.response, bytes: F.bytes(40))
            #expect(refused.status == .forbidden, "\(refused)")
            #expect(F.s3ErrorCode(refused) == "AccessDenied")

            let removed = try await F.initiated(app, vet, pet: Demo.pet(3), appointment: appointment)
            let update = try await app.put(F.appointmentPath(appointment), token: vet, json: [
                "pet_ids": [Demo.pet(1).lowercased, Demo.pet(2).lowercased],
            ])
            #expect(update.status == .ok, "\(update)")
            let afterRemoval = try await F.uploadToPresignedPost(app, removed.response, bytes: F.bytes(40))
            #expect(afterRemoval.status == .forbidden, "\(afterRemoval)")
            #expect(F.storedKeys(app, pet: Demo.pet(2)).isEmpty && F.storedKeys(app, pet: Demo.pet(3)).isEmpty)

            // A live intent is still accepted, and a key whose object landed is write-once as before.
            let live = try await F.initiated(app, vet, pet: Demo.pet(1), appointment: appointment)
            try await F.upload(app, live, bytes: F.bytes(40))
            let twice = try await F.uploadToPresignedPost(app, live.response, bytes: F.bytes(40))
            #expect(twice.status == .forbidden)
        }
    }

    /// S3 (moto) cannot refuse the upload: the reconciler deletes the re-created object after the URL expired.
    @Test(.enabled(if: MotoS3.isAvailable, "moto is unavailable (pip install 'moto[server]'); .ci/run installs it"))
    func onS3TheReconcilerRemovesWhatADeletedVisitsURLRecreated() async throws {
        let moto = try await MotoS3.start(buckets: [F.bucket, "autodetail"])
        do {
            let clock = F.manualClock()
            try await F.withApp(env: moto.environment, clock: clock) { app in
                let vet = try await app.token(for: Demo.vet1)
                let started = try await F.initiated(app, vet, pet: Demo.pet(1), appointment: Demo.appointmentID(1, app))
                #expect(started.uploadURL == "\(moto.endpoint)/\(F.bucket)/")
                let form = F.multipart(
                    text: started.fields.sorted { $0.key < $1.key }.map { ($0.key, $0.value) },
                    files: [F.FilePart(name: "file", filename: "a.m4a", contentType: "audio/m4a", bytes: F.bytes(600))])
                let post = { try await moto.send(.POST, url: started.uploadURL, headers: [("Content-Type", form.contentType)], body: form.body) }
                #expect(try await post().status == .noContent)
                #expect(try await F.complete(app, vet, started.visitID).status == .ok)
                let head = { try await app.objectStore.head(bucket: F.bucket, key: started.key) }
                try await F.deleteVisit(app, started.visitID)
                #expect(try await F.eventually { try await head() == nil }, "the delete removes the object")

                // S3 accepts the still-valid URL: the object is back, belonging to nothing.
                #expect(try await post().status == .noContent)
                #expect(try await head() != nil)
                // While the URL can still be used the key is left alone (an upload may be under way) …
                clock.advance(by: 60)
                try await RecordingReconcilerTests.reconcile(app)
                #expect(try await head() != nil)
                // … once it has expired (plus the settle delay) the reconciler removes it, and forgets the key.
                clock.advance(by: 2 * 3600)
                try await RecordingReconcilerTests.reconcile(app)
                #expect(try await head() == nil)
                #expect(try await F.intent(app, key: started.key) == nil)
                #expect(F.metric(app, "helppet_reconciler_dead_keys_removed_total") == 1)
            }
        } catch {
            await moto.stop()
            throw error
        }
        await moto.stop()
    }
}
