import AppCore
import Foundation
import Testing
import VaporTesting

/// Every path that returns a visit checks the caller's current practice. A vet moved to another
/// practice (admin `PUT /users/{id}` with a new `practice_id`) keeps their token, but every visit of the former
/// practice, the ones they recorded included, answers the contract's 404 — the repeated `complete` too, which used
/// to return the whole visit to its creator.
@Suite struct MovedVetVisitScopingTests {
    typealias F = RecordingFixtures

    @Test func aMovedVetGets404FromCompletePlaybackTranscribeAndTheVisitLists() async throws {
        try await F.withApp { app in
            let vet1 = try await app.token(for: Demo.vet1)
            let vet2 = try await app.token(for: Demo.vet2)
            let admin = try await app.token(for: Demo.admin)
            let other = try await OtherPractice.create(app)
            let appointment = Demo.appointmentID(1, app)

            // vet1 records Bella (completed) and uploads Max's file without completing it.
            let completed = try await F.recorded(app, vet1, pet: Demo.pet(1), appointment: appointment)
            let uploaded = try await F.initiated(app, vet1, pet: Demo.pet(2), appointment: appointment)
            try await F.upload(app, uploaded, bytes: F.bytes(77))
            #expect(try await F.complete(app, vet1, completed).status == .ok, "before the move: the idempotent answer")
            #expect(try await F.playback(app, vet1, completed).status == .ok)

            let moved = try await app.put("/api/v1/users/\(Demo.vet1.id.lowercased)", token: admin, json: [
                "practice_id": other.practiceID,
            ])
            #expect(moved.status == .ok, "\(moved)")

            // The same token: the caller (and its practice) is reloaded on every request.
            expectError(try await F.complete(app, vet1, completed), .notFound, "Visit not found")
            expectError(
                try await F.complete(app, vet1, completed, body: ["file_size_bytes": 77]), .notFound, "Visit not found")
            expectError(try await F.complete(app, vet1, uploaded.visitID), .notFound, "Visit not found")
            #expect(try await F.visitRow(app, uploaded.visitID)?.state == "new", "a refused complete changes nothing")
            expectError(try await F.playback(app, vet1, completed), .notFound, "Visit not found")
            expectError(
                try await F.send(app, .POST, F.transcribePath(completed), token: vet1), .notFound, "Visit not found")
            expectError(try await F.visit(app, vet1, completed), .notFound, "Visit not found")
            expectError(
                try await app.get("/api/v1/visit-transcripts/pet/\(Demo.pet(1).lowercased)", token: vet1), .notFound,
                "Pet not found")
            expectError(
                try await app.get(F.appointmentVisitsPath(appointment), token: vet1), .notFound, "Appointment not found")

            // The practice's members still work with both visits.
            let byColleague = try await F.complete(app, vet2, uploaded.visitID)
            #expect(byColleague.status == .ok, "\(byColleague)")
            #expect(byColleague.json["state"].string == "processing")
            let list = try await app.get(F.appointmentVisitsPath(appointment), token: vet2)
            #expect(list.status == .ok)
            #expect(list.json.count == 2)
        }
    }
}
