import AppCore
import Foundation
import Testing
import VaporTesting

/// The state changes `PUT /api/v1/visit-transcripts/{visit_id}` may make (contract §5.1): only
/// processing→processed, processing→failed, failed→processing, failed→processed and same-state no-ops; anything
/// else is 409 `Cannot change visit state from {from} to {to}`. The demo (manual) visit is put in each state with
/// SQL, as the worker and the audio flows would.
@Suite struct VisitStateTransitionTests {
    struct Transition: Sendable, CustomTestStringConvertible {
        let from: String
        let to: String
        /// nil: allowed (200); otherwise the 409 detail.
        let conflict: String?

        var testDescription: String { "\(from) → \(to): \(conflict ?? "200")" }

        static func allowed(_ from: String, _ to: String) -> Transition { Transition(from: from, to: to, conflict: nil) }
        static func refused(_ from: String, _ to: String) -> Transition {
            Transition(from: from, to: to, conflict: "Cannot change visit state from \(from) to \(to)")
        }
    }

    static let table: [Transition] = [
        .allowed("processing", "processed"), .allowed("processing", "failed"), .allowed("processing", "processing"),
        .refused("processing", "new"),
        // failed → processing needs the stored object: a manual visit has none.
        Transition(from: "failed", to: "processing", conflict: "Audio file has not been uploaded yet"),
        .allowed("failed", "processed"), .allowed("failed", "failed"), .refused("failed", "new"),
        .refused("processed", "processing"), .refused("processed", "failed"), .refused("processed", "new"),
        .allowed("processed", "processed"),
        .refused("new", "processing"), .refused("new", "processed"), .refused("new", "failed"), .allowed("new", "new"),
    ]

    @Test(arguments: table)
    func putTransition(_ t: Transition) async throws {
        let clock = clinicalClock()
        try await withTestApp(clock: clock) { app in
            let vet = try await app.token(for: Demo.vet1)
            try await VisitSQL.setState(app, Demo.visitID, t.from)
            let before = try await app.get(VisitFixtures.demo, token: vet)
            clock.advance(by: 60)
            let response = try await app.put(VisitFixtures.demo, token: vet, json: ["state": t.to])
            let after = try await app.get(VisitFixtures.demo, token: vet)
            if let conflict = t.conflict {
                expectError(response, .conflict, conflict)
                #expect(after.json.value == before.json.value, "a refused change changes nothing")
            } else {
                #expect(response.status == .ok, "\(response)")
                #expect(response.json["state"].string == t.to)
                #expect(after.json["state"].string == t.to)
                let expectedUpdate = t.from == t.to ? before.json["updated_at"].string : WireTime.format(clock.now())
                #expect(response.json["updated_at"].string == expectedUpdate)
            }
        }
    }

    @Test func textCannotBeEditedWhileTranscribing() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            try await VisitSQL.setState(app, Demo.visitID, "processing")
            for body: [String: Any?] in [
                ["full_text": "typed"], ["full_text": "typed", "state": "processed"], ["full_text": ""],
            ] {
                expectError(try await app.put(VisitFixtures.demo, token: vet, json: body), .conflict, "Transcription in progress")
            }
            // The transition check comes first.
            expectError(
                try await app.put(VisitFixtures.demo, token: vet, json: ["full_text": "typed", "state": "new"]),
                .conflict, "Cannot change visit state from processing to new")
            // Metadata may still be edited.
            let metadata = try await app.put(VisitFixtures.demo, token: vet, json: ["metadata": ["k": 1]])
            #expect(metadata.status == .ok, "\(metadata)")
            #expect(metadata.json["state"].string == "processing")
            // Once finished, the text is editable again.
            #expect(try await app.put(VisitFixtures.demo, token: vet, json: ["state": "failed"]).status == .ok)
            let typed = try await app.put(VisitFixtures.demo, token: vet, json: ["full_text": "typed", "state": "processed"])
            #expect(typed.status == .ok, "\(typed)")
            #expect(typed.json["full_text"].string == "typed")
            // Until a summary approves the note, which locks the transcript with it (NoteApprovalTests).
            #expect(try await app.put(VisitFixtures.demo, token: vet, json: ["summary": "s"]).status == .ok)
            #expect(try await app.put(VisitFixtures.demo, token: vet, json: ["full_text": "typed again"]).status == .conflict)
        }
    }

    @Test func refusedTransitionsComeAfterVisibility() async throws {
        try await withTestApp { app in
            let other = try await OtherPractice.create(app)
            expectError(
                try await app.put(VisitFixtures.demo, token: other.vetToken, json: ["state": "new"]), .notFound, "Visit not found")
            expectError(
                try await app.put(VisitFixtures.demo, token: try await app.token(for: Demo.owner1), json: ["state": "new"]),
                .forbidden, "Veterinary staff or administrator access required")
        }
    }

    /// A recording visit whose object was never stored cannot go back to `processing` (§5.1: "object must exist,
    /// else 409"). The storage key below points at nothing.
    @Test func failedRecordingWithoutItsObjectCannotBeRequeued() async throws {
        try await withTestApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let visit = try await VisitSQL.insertRecording(
                app, pet: Demo.pet(1), appointment: Demo.appointmentID(1, app), state: "failed",
                visitDate: app.testSeedTime, createdAt: app.testSeedTime)
            let response = try await app.put(VisitFixtures.path(visit.lowercased), token: vet, json: ["state": "processing"])
            expectError(response, .conflict, "Audio file has not been uploaded yet")
            let after = try await app.get(VisitFixtures.path(visit.lowercased), token: vet)
            #expect(after.json["state"].string == "failed")
        }
    }
}
