import AppCore
import Foundation
import SQLKit
import Testing
import VaporTesting

/// `POST /visit-transcripts/audio/upload/complete/{visit_id}` (contract §4.10): optional body, field rules, visibility
/// (members, creators, ADMIN), the 409s, and the `new → processing` transition with the size reported by storage.
@Suite struct RecordingCompleteTests {
    typealias F = RecordingFixtures

    static let sizeMessage = "file_size_bytes must be between 1 and 104857600"
    static let durationMessage = "duration_seconds must be greater than 0 and at most 14400"

    static var fieldCases: [(body: [String: Any?], detail: String)] {
        [
            (["file_size_bytes": 0], sizeMessage),
            (["file_size_bytes": -5], sizeMessage),
            (["file_size_bytes": 104_857_601], sizeMessage),
            (["file_size_bytes": 1.5], "file_size_bytes must be an integer"),
            (["file_size_bytes": "100"], "file_size_bytes must be an integer"),
            (["file_size_bytes": 0, "duration_seconds": 0], sizeMessage),
            (["duration_seconds": 0], durationMessage),
            (["duration_seconds": -1], durationMessage),
            (["duration_seconds": 14_400.01], durationMessage),
            (["duration_seconds": "185"], "duration_seconds must be a number"),
            (["duration_seconds": 0, "device_metadata": "x"], durationMessage),
            (["device_metadata": "x"], "device_metadata must be an object"),
            (["device_metadata": [1, 2]], "device_metadata must be an object"),
            (["device_metadata": ["blob": String(repeating: "a", count: 16_400)]], "device_metadata must be at most 16384 bytes"),
        ]
    }

    @Test func fieldErrorsComeBeforeTheVisitLookup() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let unknown = UUID().lowercased
            for (body, detail) in Self.fieldCases {
                expectError(try await F.complete(app, vet, unknown, body: body), .badRequest, detail)
            }
            expectError(try await F.complete(app, vet, "not-a-uuid", body: ["file_size_bytes": 0]), .badRequest,
                        "Invalid visit ID format")
            expectError(try await F.complete(app, vet, "not-a-uuid"), .badRequest, "Invalid visit ID format")
            let wrongType = try await app.sendRaw(.POST, F.completePath(unknown), token: vet, body: "{}", contentType: .plainText)
            expectError(wrongType, .badRequest, "Content-Type must be application/json")
            let malformed = try await app.sendRaw(.POST, F.completePath(unknown), token: vet, body: "{", contentType: .json)
            expectError(malformed, .badRequest, "Malformed JSON body")
            let array = try await app.sendRaw(.POST, F.completePath(unknown), token: vet, body: "[]", contentType: .json)
            expectError(array, .badRequest, "Request body must be a JSON object")
            // An empty body needs no type; with or without one it reaches the lookup.
            expectError(try await F.complete(app, vet, unknown), .notFound, "Visit not found")
            let emptyJSON = try await app.sendRaw(.POST, F.completePath(unknown), token: vet, body: "", contentType: .json)
            expectError(emptyJSON, .notFound, "Visit not found")
            expectError(try await F.complete(app, vet, unknown, body: [:]), .notFound, "Visit not found")
            let owner = try await app.token(for: Demo.owner1)
            expectError(try await F.complete(app, owner, unknown), .forbidden, F.staffOnly)
        }
    }

    @Test func boundaryAndNullValuesAreAccepted() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let started = try await F.initiated(app, vet, pet: Demo.pet(1), appointment: Demo.appointmentID(1, app))
            try await F.upload(app, started, bytes: F.bytes(64))
            let completed = try await F.complete(app, vet, started.visitID, body: [
                "file_size_bytes": nil, "duration_seconds": nil, "device_metadata": nil, "extra": "ignored",
            ])
            #expect(completed.status == .ok, "\(completed)")
            let metadata = completed.json["metadata"]
            #expect(metadata["duration_seconds"].isNull)
            #expect(metadata["device_metadata"].keys.isEmpty && !metadata["device_metadata"].isNull, "`{}` without a client object")
            #expect(metadata["client_file_size_bytes"].isAbsent)
            #expect(metadata["file_size_bytes"].int == 64)

            let other = try await F.initiated(app, vet, pet: Demo.pet(2), appointment: Demo.appointmentID(1, app))
            try await F.upload(app, other, bytes: F.bytes(10))
            let bounds = try await F.complete(app, vet, other.visitID, body: [
                "file_size_bytes": 104_857_600, "duration_seconds": 14_400,
                "device_metadata": ["blob": String(repeating: "a", count: 16_000)],
            ])
            #expect(bounds.status == .ok, "\(bounds)")
            #expect(bounds.json["metadata"]["client_file_size_bytes"].int == 104_857_600)
            #expect(bounds.json["metadata"]["file_size_bytes"].int == 10)
        }
    }

    @Test func completeBeforeTheUploadIsRefusedAndChangesNothing() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let started = try await F.initiated(app, vet, pet: Demo.pet(1), appointment: Demo.appointmentID(1, app))
            let before = try await F.visit(app, vet, started.visitID)
            for body in [nil, ["file_size_bytes": 10] as [String: Any?]] {
                expectError(
                    try await F.complete(app, vet, started.visitID, body: body), .conflict,
                    "Audio file has not been uploaded yet")
            }
            let after = try await F.visit(app, vet, started.visitID)
            #expect(after.json.value == before.json.value, "nothing changes")
            #expect(try await F.jobs(app, visit: started.visitID) == [])
            #expect(try #require(try await F.visitRow(app, started.visitID)).state == "new")
        }
    }

    /// Completing clears `reserved_at` and `reconcile_after` and reports the object URL (§4.10).
    @Test func completeClearsTheReconcilerBookkeeping() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let started = try await F.initiated(app, vet, pet: Demo.pet(1), appointment: Demo.appointmentID(1, app))
            try await F.upload(app, started, bytes: F.bytes(90))
            let later = Date().addingTimeInterval(600)
            try await F.exec(app, """
                UPDATE visits SET reconcile_after = \(bind: later) WHERE id = \(bind: try F.uuid(started.visitID))
                """)
            let completed = try await F.complete(app, vet, started.visitID)
            #expect(completed.status == .ok)
            #expect(completed.json["audio_transcript_url"].string == "\(F.baseURL)/storage/\(F.bucket)/\(started.key)")
            let row = try #require(try await F.visitRow(app, started.visitID))
            #expect(row.state == "processing")
            #expect(row.reconcileAfter == nil)
            #expect(row.reservedAt == nil)
        }
    }

    @Test func manualVisitsHaveNoUploadToComplete() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            expectError(
                try await F.complete(app, vet, Demo.visitID.lowercased), .conflict,
                "This visit has no audio upload to complete")
            let admin = try await app.token(for: Demo.admin)
            expectError(
                try await F.complete(app, admin, Demo.visitID.lowercased, body: ["file_size_bytes": 5]), .conflict,
                "This visit has no audio upload to complete")
        }
    }

    /// 404 for a caller who is not ADMIN and not a member of the visit's current practice. Its creator gets no
    /// exception once moved to another practice (complete answers with the whole visit).
    @Test func visibilityMembersCreatorsAndAdmins() async throws {
        try await F.withApp { app in
            let vet1 = try await app.token(for: Demo.vet1)
            let vet2 = try await app.token(for: Demo.vet2)
            let admin = try await app.token(for: Demo.admin)
            let other = try await OtherPractice.create(app)
            let appointment = Demo.appointmentID(1, app)

            let byVet2 = try await F.initiated(app, vet2, pet: Demo.pet(1), appointment: appointment)
            try await F.upload(app, byVet2, bytes: F.bytes(50))
            expectError(try await F.complete(app, other.vetToken, byVet2.visitID), .notFound, "Visit not found")

            // vet2 moves to the other practice: its own visit is now out of sight, complete included.
            let moved = try await app.put("/api/v1/users/\(Demo.vet2.id.lowercased)", token: admin, json: [
                "practice_id": other.practiceID,
            ])
            #expect(moved.status == .ok, "\(moved)")
            expectError(try await F.complete(app, vet2, byVet2.visitID), .notFound, "Visit not found")
            expectError(try await F.playback(app, vet2, byVet2.visitID), .notFound, "Visit not found")
            // A member of the practice completes what vet2 uploaded.
            let completed = try await F.complete(app, vet1, byVet2.visitID)
            #expect(completed.status == .ok, "\(completed)")
            #expect(completed.json["state"].string == "processing")

            // A member of the practice completes a colleague's visit; ADMIN completes anything.
            let byVet1 = try await F.initiated(app, vet1, pet: Demo.pet(2), appointment: appointment)
            try await F.upload(app, byVet1, bytes: F.bytes(60))
            let adminCompleted = try await F.complete(app, admin, byVet1.visitID)
            #expect(adminCompleted.status == .ok, "\(adminCompleted)")
            expectError(try await F.complete(app, other.vetToken, byVet1.visitID), .notFound, "Visit not found")
        }
    }

    /// Idempotent once completed: any body, same answer, `updated_at` unchanged (R10 has the concurrent part).
    @Test func repeatedCompletesReturnTheUnchangedVisit() async throws {
        let clock = F.manualClock()
        try await F.withApp(clock: clock) { app in
            let vet = try await app.token(for: Demo.vet1)
            let started = try await F.initiated(app, vet, pet: Demo.pet(1), appointment: Demo.appointmentID(1, app))
            try await F.upload(app, started, bytes: F.bytes(300))
            let first = try await F.complete(app, vet, started.visitID, body: ["duration_seconds": 3])
            #expect(first.status == .ok)
            clock.advance(by: 30)
            for body in [nil, [:], ["file_size_bytes": 1, "duration_seconds": 99, "device_metadata": ["x": 1]]] as [[String: Any?]?] {
                let again = try await F.complete(app, vet, started.visitID, body: body)
                #expect(again.status == .ok)
                #expect(again.json.value == first.json.value, "the body is ignored and the visit unchanged")
            }
            // Even invalid field values are validated first (field errors precede the state).
            expectError(
                try await F.complete(app, vet, started.visitID, body: ["file_size_bytes": 0]), .badRequest, Self.sizeMessage)
            #expect(try await F.jobs(app, visit: started.visitID).count == 1)
        }
    }
}
