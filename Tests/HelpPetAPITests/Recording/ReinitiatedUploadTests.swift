import AppCore
import Foundation
@testable import HelpPetAPI
import SQLKit
import Testing
import VaporTesting

/// Nothing that lands under a key the server issued is lost. Re-initiating with another content
/// type issues a second key for the same slot while the first URL stays valid; complete and the reconciler look
/// under every key of the slot (upload intents), the newest landed object of the current round becomes the
/// recording and any other one is kept in `previous_recordings` (docs/recording-safety.md).
@Suite struct ReinitiatedUploadTests {
    typealias F = RecordingFixtures

    struct TwoURLs {
        let first: F.Initiated
        let second: F.Initiated
    }

    /// Initiate `audio/m4a`, then again for the same pet with `audio/webm`: same visit, two keys.
    static func initiateTwice(_ app: Application, _ vet: String, pet: UUID = Demo.pet(1)) async throws -> TwoURLs {
        let appointment = Demo.appointmentID(1, app)
        let first = try await F.initiated(
            app, vet, pet: pet, appointment: appointment, filename: "bella-first.m4a", contentType: "audio/m4a")
        let second = try await F.initiated(
            app, vet, pet: pet, appointment: appointment, filename: "bella-second.webm", contentType: "audio/webm")
        #expect(second.visitID == first.visitID)
        #expect(first.key.hasSuffix("-1.m4a") && second.key.hasSuffix("-1.webm"))
        return TwoURLs(first: first, second: second)
    }

    /// Playback's presigned GET serves `bytes` with the playback type of `contentType`.
    static func expectPlayable(
        _ app: Application, _ token: String, _ visitID: String, bytes: [UInt8], playbackType: String, filename: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        try await F.expectPlayback(app, token, visitID, bytes: bytes, sourceLocation: sourceLocation)
        let playback = try await F.playback(app, token, visitID)
        #expect(playback.json["filename"].string == filename, sourceLocation: sourceLocation)
        let fetched = try await F.fetch(app, try #require(playback.json["presigned_url"].string), sourceLocation: sourceLocation)
        #expect(fetched.headers.first(name: .contentType) == playbackType, sourceLocation: sourceLocation)
    }

    /// The attack as reported: upload to the first URL (204), complete → it used to be 409 with the audio orphaned.
    @Test func theFirstURLsUploadIsAttachedAndPlayableAfterReinitiatingWithAnotherType() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let urls = try await Self.initiateTwice(app, vet)
            let bytes = F.bytes(4_321)
            let uploaded = try await F.uploadToPresignedPost(app, urls.first.response, bytes: bytes)
            #expect(uploaded.status == .noContent, "\(uploaded)")

            let completed = try await F.complete(app, vet, urls.first.visitID, body: ["file_size_bytes": 4_321])
            #expect(completed.status == .ok, "\(completed)")
            #expect(completed.json["state"].string == "processing")
            let metadata = completed.json["metadata"]
            #expect(metadata["s3_key"].string == urls.first.key)
            #expect(metadata["content_type"].string == "audio/m4a", "the type of the key that landed")
            #expect(metadata["filename"].string == "bella-first.m4a")
            #expect(metadata["file_size_bytes"].int == 4_321)
            #expect(metadata["previous_recordings"].isAbsent)
            #expect(completed.json["audio_transcript_url"].string == "\(F.baseURL)/storage/\(F.bucket)/\(urls.first.key)")
            #expect(try await F.visitRow(app, urls.first.visitID)?.storageKey == urls.first.key)
            #expect(try await F.jobs(app, visit: urls.first.visitID).map(\.storageKey) == [urls.first.key])
            try await Self.expectPlayable(
                app, vet, urls.first.visitID, bytes: bytes, playbackType: "audio/mp4", filename: "bella-first.m4a")
            let intents = try await F.intents(app, visit: urls.first.visitID)
            #expect(intents.map(\.status) == ["landed", "open"], "\(intents)")
        }
    }

    /// Without a complete call the reconciler finds the object under the older key.
    @Test func theReconcilerFindsAnUploadUnderAnOlderKeyOfTheSlot() async throws {
        let clock = F.manualClock()
        try await F.withApp(clock: clock) { app in
            let vet = try await app.token(for: Demo.vet1)
            let urls = try await Self.initiateTwice(app, vet)
            let bytes = F.bytes(2_048)
            try await F.upload(app, urls.first, bytes: bytes)
            clock.advance(by: 2)
            try await RecordingReconcilerTests.reconcile(app)

            let visit = try await F.visit(app, vet, urls.first.visitID)
            #expect(visit.json["state"].string == "processing")
            #expect(visit.json["metadata"]["completion_source"].string == "reconciler")
            #expect(visit.json["metadata"]["s3_key"].string == urls.first.key)
            #expect(visit.json["metadata"]["content_type"].string == "audio/m4a")
            try await Self.expectPlayable(
                app, vet, urls.first.visitID, bytes: bytes, playbackType: "audio/mp4", filename: "bella-first.m4a")
        }
    }

    /// Both URLs were used: the one issued last is the recording, the other one is kept.
    @Test func whenBothUploadsLandTheNewestIsTheRecordingAndTheOtherIsKept() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let urls = try await Self.initiateTwice(app, vet)
            let older = F.bytes(1_000, seed: 1)
            let newer = F.bytes(1_500, seed: 2)
            try await F.upload(app, urls.first, bytes: older)
            try await F.upload(app, urls.second, bytes: newer)

            let completed = try await F.complete(app, vet, urls.first.visitID)
            #expect(completed.status == .ok, "\(completed)")
            let metadata = completed.json["metadata"]
            #expect(metadata["s3_key"].string == urls.second.key)
            #expect(metadata["content_type"].string == "audio/webm")
            #expect(metadata["file_size_bytes"].int == 1_500)
            let previous = metadata["previous_recordings"]
            #expect(previous.count == 1)
            #expect(previous[0]["s3_key"].string == urls.first.key)
            #expect(previous[0]["content_type"].string == "audio/m4a")
            #expect(previous[0]["filename"].string == "bella-first.m4a")
            #expect(previous[0]["file_size_bytes"].int == 1_000)
            #expect(previous[0]["attempt"].int == 1)
            #expect(previous[0]["superseded_upload"].bool == true)
            #expect(previous[0]["replaced_by"].string == Demo.vet1.id.lowercased)
            #expect(F.objectBytes(app, key: urls.first.key) == older, "the older upload stays in storage")
            try await Self.expectPlayable(
                app, vet, urls.first.visitID, bytes: newer, playbackType: "audio/webm", filename: "bella-second.webm")
            #expect(try await F.intents(app, visit: urls.first.visitID).map(\.status) == ["landed", "landed"])
        }
    }

    /// The first URL is used after the visit was completed with the second: the reconciler's final look under the
    /// key, once its URL has expired, keeps the late object without touching the recording.
    @Test func anUploadLandingAfterCompletionIsKeptAsAPreviousRecording() async throws {
        let clock = F.manualClock()
        try await F.withApp(clock: clock) { app in
            let vet = try await app.token(for: Demo.vet1)
            let urls = try await Self.initiateTwice(app, vet)
            let recording = F.bytes(900, seed: 3)
            try await F.upload(app, urls.second, bytes: recording)
            let completed = try await F.complete(app, vet, urls.first.visitID)
            #expect(completed.status == .ok)
            let late = F.bytes(700, seed: 4)
            try await F.upload(app, urls.first, bytes: late)

            // While the first URL can still be used nothing is decided.
            clock.advance(by: 60)
            try await RecordingReconcilerTests.reconcile(app)
            let early = try await F.visit(app, vet, urls.first.visitID)
            #expect(early.json["metadata"]["previous_recordings"].isAbsent)

            clock.advance(by: 2 * 3600)
            try await RecordingReconcilerTests.reconcile(app)
            let later = try await app.token(for: Demo.vet1)  // tokens expire by the server clock
            let visit = try await F.visit(app, later, urls.first.visitID)
            #expect(visit.json["state"].string == "processing")
            #expect(visit.json["metadata"]["s3_key"].string == urls.second.key, "the recording is unchanged")
            #expect(visit.json["metadata"]["completion_source"].string == "client")
            let previous = visit.json["metadata"]["previous_recordings"]
            #expect(previous.count == 1)
            #expect(previous[0]["s3_key"].string == urls.first.key)
            #expect(previous[0]["file_size_bytes"].int == 700)
            #expect(previous[0]["replaced_by"].isNull, "found by the reconciler")
            #expect(F.objectBytes(app, key: urls.first.key) == late)
            try await F.expectPlayback(app, later, urls.first.visitID, bytes: recording)
        }
    }

    /// After a replace, the earlier round's URLs are still valid: what lands there is kept, never made current.
    @Test func anUploadToAURLIssuedBeforeAReplaceNeverBecomesTheRecording() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let urls = try await Self.initiateTwice(app, vet)
            try await F.upload(app, urls.second, bytes: F.bytes(300, seed: 5))
            #expect(try await F.complete(app, vet, urls.first.visitID).status == .ok)
            let replacement = try await F.initiated(
                app, vet, pet: Demo.pet(1), appointment: Demo.appointmentID(1, app), replaceExisting: true)
            #expect(replacement.key.hasSuffix("-2.m4a"))
            try await F.upload(app, urls.first, bytes: F.bytes(400, seed: 6))

            expectError(
                try await F.complete(app, vet, urls.first.visitID), .conflict, "Audio file has not been uploaded yet")
            let waiting = try await F.visit(app, vet, urls.first.visitID)
            #expect(waiting.json["state"].string == "new")
            let kept = waiting.json["metadata"]["previous_recordings"]
            #expect(kept.array?.compactMap { $0["s3_key"].string } == [urls.second.key, urls.first.key])

            let replacementBytes = F.bytes(500, seed: 7)
            try await F.upload(app, replacement, bytes: replacementBytes)
            let completed = try await F.complete(app, vet, urls.first.visitID)
            #expect(completed.json["metadata"]["s3_key"].string == replacement.key)
            try await F.expectPlayback(app, vet, urls.first.visitID, bytes: replacementBytes)
        }
    }

    /// M0111's backfill: existing recording visits get an intent for their current key, `open` while `new`.
    @Test func theMigrationGivesExistingRecordingsAnIntentForTheirCurrentKey() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let appointment = Demo.appointmentID(1, app)
            let completed = try await F.recorded(app, vet, pet: Demo.pet(1), appointment: appointment)
            let pending = try await F.initiated(app, vet, pet: Demo.pet(2), appointment: appointment)
            // The rows as an older version left them: no intents at all.
            try await F.exec(app, "DELETE FROM upload_intents")
            try await M0111_CreateUploadIntents().backfill(on: app.db)

            #expect(try await F.intents(app, visit: pending.visitID) == [
                F.IntentRow(storageKey: pending.key, status: "open", visitID: try F.uuid(pending.visitID))
            ])
            let completedKey = try #require(try await F.visitRow(app, completed)?.storageKey)
            #expect(try await F.intents(app, visit: completed).map(\.status) == ["landed"])
            #expect(try await F.intent(app, key: completedKey) != nil)
            #expect(try await F.count(app, "SELECT COUNT(*) AS n FROM upload_intents") == 2, "manual visits have none")
            // The pending visit's URL is accepted and its upload completes as before.
            try await F.upload(app, pending, bytes: F.bytes(64))
            #expect(try await F.complete(app, vet, pending.visitID).json["state"].string == "processing")
        }
    }
}
