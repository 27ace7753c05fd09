import AppCore
import Foundation
import SQLKit
import Testing
import VaporTesting

/// `GET /visit-transcripts/audio/playback/{visit_id}` (contract §4.10) and the presigned GET it hands out (§7.4).
@Suite struct RecordingPlaybackTests {
    typealias F = RecordingFixtures

    @Test func errors() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let owner = try await app.token(for: Demo.owner1)
            expectError(try await F.playback(app, vet, "nope"), .badRequest, "Invalid visit ID format")
            expectError(try await F.playback(app, vet, UUID().lowercased), .notFound, "Visit not found")
            // A manual visit has no playable audio.
            expectError(try await F.playback(app, vet, Demo.visitID.lowercased), .notFound, "Audio file not found")
            expectError(try await F.playback(app, owner, Demo.visitID.lowercased), .notFound, "Audio file not found")
            // A pending visit before its upload.
            let started = try await F.initiated(app, vet, pet: Demo.pet(1), appointment: Demo.appointmentID(1, app))
            expectError(try await F.playback(app, vet, started.visitID), .notFound, "Audio file not found")
            // A completed recording whose object has gone missing from storage (HEAD finds nothing).
            let recorded = try await F.recorded(app, vet, pet: Demo.pet(2), appointment: Demo.appointmentID(1, app))
            let key = try #require(try await F.visitRow(app, recorded)?.storageKey)
            try FileManager.default.removeItem(at: F.objectFile(app, key: key))
            expectError(try await F.playback(app, vet, recorded), .notFound, "Audio file not found")
            // Outside the caller's visibility: 404 Visit not found, before any storage check.
            let other = try await OtherPractice.create(app)
            expectError(try await F.playback(app, other.vetToken, started.visitID), .notFound, "Visit not found")
            let fluffy = try await F.recorded(app, vet, pet: Demo.pet(4))
            expectError(try await F.playback(app, owner, fluffy), .notFound, "Visit not found")
        }
    }

    /// All roles may play back what they can see: the owner plays back their own pet's recording (R15).
    @Test func everyRoleThatSeesTheVisitCanPlayItBack() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let bytes = F.bytes(4_321)
            let visitID = try await F.recorded(app, vet, pet: Demo.pet(1), appointment: Demo.appointmentID(1, app), bytes: bytes)
            for user in [Demo.vet1, Demo.vet2, Demo.admin, Demo.owner1] {
                try await F.expectPlayback(app, try await app.token(for: user), visitID, bytes: bytes)
            }
        }
    }

    /// The URL serves the playback type of §3.1 for the stored content type, inline with the file name.
    @Test func playbackTypesFollowTheStoredContentType() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let cases: [(UUID, String, String, String)] = [
                (Demo.pet(1), "audio/mp4", "m4a", "audio/mp4"),
                (Demo.pet(2), "audio/x-m4a", "m4a", "audio/mp4"),
                (Demo.pet(3), "audio/aac", "aac", "audio/aac"),
                (Demo.pet(4), "audio/mpeg", "mp3", "audio/mpeg"),
                (Demo.pet(5), "audio/x-wav", "wav", "audio/wav"),
                (Demo.pet(6), "audio/webm", "webm", "audio/webm"),
                (Demo.pet(7), "audio/ogg", "ogg", "audio/ogg"),
            ]
            for (pet, type, ext, playbackType) in cases {
                let started = try await F.initiated(app, vet, pet: pet, filename: "take.\(ext)", contentType: type)
                #expect(started.key.hasSuffix("-1.\(ext)"), "\(type): \(started.key)")
                let bytes = F.bytes(333, seed: UInt8(ext.count))
                try await F.upload(app, started, bytes: bytes)
                #expect(try await F.complete(app, vet, started.visitID).status == .ok)
                let playback = try await F.playback(app, vet, started.visitID)
                #expect(playback.json["filename"].string == "take.\(ext)")
                let fetched = try await F.fetch(app, try #require(playback.json["presigned_url"].string))
                #expect(fetched.status == .ok)
                #expect(fetched.headers.first(name: .contentType) == playbackType, "\(type)")
                #expect(fetched.headers.first(name: .contentDisposition) == "inline; filename=\"take.\(ext)\"")
                #expect(Array(fetched.body) == bytes)
            }
        }
    }

    /// The presigned GET lives 900 s (X-Amz-Expires) by the server clock.
    @Test func thePresignedURLExpiresAfter900Seconds() async throws {
        let clock = F.manualClock()
        try await F.withApp(clock: clock) { app in
            let vet = try await app.token(for: Demo.vet1)
            let bytes = F.bytes(1_000)
            let visitID = try await F.recorded(app, vet, pet: Demo.pet(1), appointment: Demo.appointmentID(1, app), bytes: bytes)
            let playback = try await F.playback(app, vet, visitID)
            let url = try #require(playback.json["presigned_url"].string)
            clock.advance(by: 899)
            #expect(try await F.fetch(app, url).status == .ok)
            clock.advance(by: 2)
            let expired = try await F.fetch(app, url)
            #expect(expired.status == .forbidden, "\(expired)")
            #expect(expired.text.contains("<Code>AccessDenied</Code>"))
            // A new playback call hands out a fresh URL.
            try await F.expectPlayback(app, vet, visitID, bytes: bytes)
        }
    }

    /// Legacy uploads play back the same way (one `s3_key` for both flows, Appendix A16).
    @Test func legacyUploadsPlayBack() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let bytes = F.bytes(2_222)
            let uploaded = try await F.legacyUpload(
                app, vet, appointment: Demo.appointmentID(1, app), pet: Demo.pet(1), bytes: bytes, contentType: "audio/mpeg",
                filename: "bella visit.mp3")
            #expect(uploaded.status == .created, "\(uploaded)")
            let visitID = try #require(uploaded.json["visit_id"].string)
            let playback = try await F.playback(app, vet, visitID)
            #expect(playback.json["filename"].string == "bella visit.mp3")
            let fetched = try await F.fetch(app, try #require(playback.json["presigned_url"].string))
            #expect(fetched.headers.first(name: .contentType) == "audio/mpeg")
            #expect(Array(fetched.body) == bytes)
        }
    }
}
