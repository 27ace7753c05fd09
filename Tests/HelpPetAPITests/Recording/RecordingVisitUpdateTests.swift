import AppCore
import Foundation
import SQLKit
import Testing
import VaporTesting

/// `PUT /visit-transcripts/{visit_id}` on recording visits (contract §4.9, §5.1): the PUT state transitions, the
/// object check of `failed → processing` and its re-queue, text edits while transcribing, summary approval, and
/// the immutable recording URL.
@Suite struct RecordingVisitUpdateTests {
    typealias F = RecordingFixtures

    @Test func onlyThePutTransitionsAreAllowed() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let appointment = Demo.appointmentID(1, app)
            let pending = try await F.initiated(app, vet, pet: Demo.pet(2), appointment: appointment)
            for to in ["processing", "processed", "failed"] {
                expectError(
                    try await app.put(F.visitPath(pending.visitID), token: vet, json: ["state": to]), .conflict,
                    "Cannot change visit state from new to \(to)")
            }
            let same = try await app.put(F.visitPath(pending.visitID), token: vet, json: ["state": "new"])
            #expect(same.status == .ok, "a same-state no-op: \(same)")

            let visitID = try await F.recorded(app, vet, pet: Demo.pet(1), appointment: appointment)
            expectError(
                try await app.put(F.visitPath(visitID), token: vet, json: ["state": "new"]), .conflict,
                "Cannot change visit state from processing to new")
            expectError(
                try await app.put(F.visitPath(visitID), token: vet, json: ["full_text": "typed"]), .conflict,
                "Transcription in progress")
            #expect(try await app.put(F.visitPath(visitID), token: vet, json: ["state": "processed"]).status == .ok)
            expectError(
                try await app.put(F.visitPath(visitID), token: vet, json: ["state": "processing"]), .conflict,
                "Cannot change visit state from processed to processing")
            expectError(
                try await app.put(F.visitPath(visitID), token: vet, json: ["state": "failed"]), .conflict,
                "Cannot change visit state from processed to failed")
            let text = try await app.put(F.visitPath(visitID), token: vet, json: ["full_text": "typed"])
            #expect(text.status == .ok)
            #expect(text.json["full_text"].string == "typed")
        }
    }

    /// `failed → processing` needs the stored object (else 409) and re-queues the job of the current key.
    @Test func failedToProcessingRequiresTheObjectAndRequeues() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let visitID = try await F.recorded(app, vet, pet: Demo.pet(1), appointment: Demo.appointmentID(1, app))
            let job = try #require(try await F.jobs(app, visit: visitID).first)
            let failed = try await app.put(F.visitPath(visitID), token: vet, json: ["state": "failed"])
            #expect(failed.status == .ok, "\(failed)")
            #expect(failed.json["state"].string == "failed")
            try await F.exec(app, """
                UPDATE transcription_jobs SET status = 'failed', attempts = 3, last_error = 'x' WHERE id = \(bind: job.id)
                """)

            // The object is missing from storage.
            let key = try #require(try await F.visitRow(app, visitID)?.storageKey)
            let file = F.objectFile(app, key: key)
            let saved = try Data(contentsOf: file)
            try FileManager.default.removeItem(at: file)
            expectError(
                try await app.put(F.visitPath(visitID), token: vet, json: ["state": "processing"]), .conflict,
                "Audio file has not been uploaded yet")
            #expect(try await F.visit(app, vet, visitID).json["state"].string == "failed")
            #expect(try await F.jobs(app, visit: visitID).first?.status == "failed")

            try saved.write(to: file)
            let requeued = try await app.put(F.visitPath(visitID), token: vet, json: ["state": "processing"])
            #expect(requeued.status == .ok, "\(requeued)")
            #expect(requeued.json["state"].string == "processing")
            #expect(try await F.jobs(app, visit: visitID) == [
                F.JobRow(id: job.id, storageKey: key, status: "queued", attempts: 0),
            ])
            #expect(requeued.json["metadata"]["transcription_job_id"].string == job.id.lowercased)
        }
    }

    @Test func failedToProcessedAndSummaryApproval() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let visitID = try await F.recorded(app, vet, pet: Demo.pet(1), appointment: Demo.appointmentID(1, app))
            #expect(try await app.put(F.visitPath(visitID), token: vet, json: ["state": "failed"]).status == .ok)
            let done = try await app.put(F.visitPath(visitID), token: vet, json: [
                "state": "processed", "full_text": "The vet typed this.", "summary": "Typed summary",
            ])
            #expect(done.status == .ok, "\(done)")
            #expect(done.json["state"].string == "processed")
            #expect(done.json["full_text"].string == "The vet typed this.")
            #expect(done.json["metadata"]["summary_status"].string == "approved")
            let owner = try await app.token(for: Demo.owner1)
            #expect(try await F.visit(app, owner, visitID).json["summary"].string == "Typed summary")
        }
    }

    /// The recording's URL and links are immutable but may be echoed back (clients send whole objects).
    @Test func theWholeVisitCanBeEchoedBack() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let visitID = try await F.recorded(app, vet, pet: Demo.pet(1), appointment: Demo.appointmentID(1, app))
            #expect(try await app.put(F.visitPath(visitID), token: vet, json: ["state": "processed"]).status == .ok)
            let current = try await F.visit(app, vet, visitID)
            var body = try JSONDecoder().decode([String: JSONValue].self, from: current.body)
            body["metadata"] = .object(["chief_complaint": .string("Cough")])
            let echoed = try await app.sendRaw(
                .PUT, F.visitPath(visitID), token: vet,
                body: String(decoding: try JSONEncoder().encode(body), as: UTF8.self), contentType: .json)
            #expect(echoed.status == .ok, "\(echoed)")
            #expect(echoed.json["metadata"]["chief_complaint"].string == "Cough")
            expectError(
                try await app.put(F.visitPath(visitID), token: vet, json: ["audio_transcript_url": "https://x.example/a.m4a", "full_text": "x"]),
                .badRequest, "audio_transcript_url cannot be changed")
            expectError(
                try await app.put(F.visitPath(visitID), token: vet, json: ["appointment_id": nil, "full_text": "x"]),
                .badRequest, "appointment_id cannot be changed")
        }
    }
}
