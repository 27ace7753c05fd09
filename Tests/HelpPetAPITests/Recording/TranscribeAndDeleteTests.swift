import AppCore
import Foundation
import SQLKit
import Testing
import VaporTesting

/// `POST /visit-transcripts/{visit_id}/transcribe` and `DELETE /visit-transcripts/{visit_id}` (contract §4.9, §5.1).
@Suite struct RecordingTranscribeAndDeleteTests {
    typealias F = RecordingFixtures

    static func transcribe(_ app: Application, _ token: String, _ visitID: String) async throws -> TestResponse {
        try await app.send(.POST, F.transcribePath(visitID), token: token)
    }

    /// A landed upload that was never completed: transcribe completes it (202, processing, one queued job); while
    /// that job is queued, transcribe again is 409.
    @Test func transcribeCompletesALandedUploadThenRefusesWhileQueued() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let started = try await F.initiated(app, vet, pet: Demo.pet(1), appointment: Demo.appointmentID(1, app))
            try await F.upload(app, started, bytes: F.bytes(808))
            let accepted = try await app.send(
                .POST, F.transcribePath(started.visitID), token: vet, headers: ["Content-Type": "text/plain"], body: "ignored")
            #expect(accepted.status == .accepted, "\(accepted)")
            #expect(accepted.json.keys == ClinicalKeys.visitTranscript)
            #expect(accepted.json["state"].string == "processing")
            #expect(accepted.json["metadata"]["file_size_bytes"].int == 808)
            let jobs = try await F.jobs(app, visit: started.visitID)
            #expect(jobs.map(\.status) == ["queued"])
            #expect(accepted.json["metadata"]["transcription_job_id"].string == jobs.first?.id.lowercased)
            expectError(try await Self.transcribe(app, vet, started.visitID), .conflict, "Transcription in progress")
            #expect(try await F.jobs(app, visit: started.visitID) == jobs)
        }
    }

    /// `processing` with a running job → 409; once that job is no longer live, transcribe re-queues it.
    @Test func transcribeOnAProcessingVisitNeedsNoLiveJob() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let visitID = try await F.recorded(app, vet, pet: Demo.pet(1), appointment: Demo.appointmentID(1, app))
            let job = try #require(try await F.jobs(app, visit: visitID).first)
            try await F.exec(app, "UPDATE transcription_jobs SET status = 'running', attempts = 1 WHERE id = \(bind: job.id)")
            expectError(try await Self.transcribe(app, vet, visitID), .conflict, "Transcription in progress")
            try await F.exec(app, "UPDATE transcription_jobs SET status = 'done' WHERE id = \(bind: job.id)")
            let accepted = try await Self.transcribe(app, vet, visitID)
            #expect(accepted.status == .accepted, "\(accepted)")
            #expect(accepted.json["state"].string == "processing")
            #expect(try await F.jobs(app, visit: visitID) == [
                F.JobRow(id: job.id, storageKey: job.storageKey, status: "queued", attempts: 0),
            ])
        }
    }

    @Test func transcribeErrors() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let noAudio = "This visit has no audio to transcribe"
            expectError(try await Self.transcribe(app, vet, "x"), .badRequest, "Invalid visit ID format")
            expectError(try await Self.transcribe(app, vet, UUID().lowercased), .notFound, "Visit not found")
            expectError(try await Self.transcribe(app, vet, Demo.visitID.lowercased), .conflict, noAudio)
            let pending = try await F.initiated(app, vet, pet: Demo.pet(1), appointment: Demo.appointmentID(1, app))
            expectError(try await Self.transcribe(app, vet, pending.visitID), .conflict, noAudio)
            #expect(try await F.visit(app, vet, pending.visitID).json["state"].string == "new")

            // A recording whose object is gone (HEAD finds nothing).
            let recorded = try await F.recorded(app, vet, pet: Demo.pet(2), appointment: Demo.appointmentID(1, app))
            try await F.exec(app, "UPDATE transcription_jobs SET status = 'done' WHERE visit_id = \(bind: try F.uuid(recorded))")
            let key = try #require(try await F.visitRow(app, recorded)?.storageKey)
            try FileManager.default.removeItem(at: F.objectFile(app, key: key))
            expectError(try await Self.transcribe(app, vet, recorded), .conflict, noAudio)

            let owner = try await app.token(for: Demo.owner1)
            expectError(try await Self.transcribe(app, owner, recorded), .forbidden, F.staffOnly)
            let other = try await OtherPractice.create(app)
            expectError(try await Self.transcribe(app, other.vetToken, recorded), .notFound, "Visit not found")
        }
    }

    /// `failed` (the job failed after its last attempt) → transcribe → `processing`, the same job row re-queued;
    /// `full_text` and `summary` stay until a new result is applied.
    @Test func transcribeRequeuesAFailedRecording() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let admin = try await app.token(for: Demo.admin)
            let visitID = try await F.recorded(app, vet, pet: Demo.pet(1), appointment: Demo.appointmentID(1, app))
            let job = try #require(try await F.jobs(app, visit: visitID).first)
            try await F.exec(app, """
                UPDATE transcription_jobs SET status = 'failed', attempts = 3, last_error = 'engine failed'
                WHERE id = \(bind: job.id)
                """)
            #expect(try await app.put(F.visitPath(visitID), token: vet, json: ["state": "failed"]).status == .ok)
            let typed = try await app.put(F.visitPath(visitID), token: vet, json: ["full_text": "Typed by hand", "summary": "S"])
            #expect(typed.status == .ok, "\(typed)")

            let accepted = try await Self.transcribe(app, admin, visitID)
            #expect(accepted.status == .accepted, "\(accepted)")
            #expect(accepted.json["state"].string == "processing")
            #expect(accepted.json["full_text"].string == "Typed by hand")
            #expect(accepted.json["summary"].string == "S")
            #expect(try await F.jobs(app, visit: visitID) == [
                F.JobRow(id: job.id, storageKey: job.storageKey, status: "queued", attempts: 0),
            ])
            #expect(accepted.json["metadata"]["transcription_job_id"].string == job.id.lowercased)
        }
    }

    /// `processed` → transcribe again → `processing`; of two concurrent calls one wins, the other is 409.
    @Test func transcribeAgainAfterProcessedHasOneWinner() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let visitID = try await F.recorded(app, vet, pet: Demo.pet(1), appointment: Demo.appointmentID(1, app))
            try await F.exec(app, "UPDATE transcription_jobs SET status = 'done' WHERE visit_id = \(bind: try F.uuid(visitID))")
            #expect(try await app.put(F.visitPath(visitID), token: vet, json: ["state": "processed"]).status == .ok)
            #expect(try await app.put(F.visitPath(visitID), token: vet, json: ["full_text": "Result"]).status == .ok)

            let responses = try await RecordingInvariantsTests.concurrently(2) { _ in
                try await Self.transcribe(app, vet, visitID)
            }
            let statuses = responses.map(\.status.code).sorted()
            #expect(statuses == [202, 409], "\(responses.map(\.description))")
            if let loser = responses.first(where: { $0.status == .conflict }) {
                expectError(loser, .conflict, "Transcription in progress")
            }
            let visit = try await F.visit(app, vet, visitID)
            #expect(visit.json["state"].string == "processing")
            #expect(visit.json["full_text"].string == "Result")
            #expect(try await F.jobs(app, visit: visitID).map(\.status) == ["queued"])
        }
    }

    @Test func deleteErrors() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let admin = try await app.token(for: Demo.admin)
            let visitID = try await F.recorded(app, vet, pet: Demo.pet(1), appointment: Demo.appointmentID(1, app))
            for user in [Demo.vet1, Demo.owner1] {
                expectError(
                    try await app.delete(F.visitPath(visitID), token: try await app.token(for: user)), .forbidden,
                    "Administrator access required")
            }
            expectError(try await app.delete(F.visitPath("nope"), token: admin), .badRequest, "Invalid visit ID format")
            expectError(try await app.delete(F.visitPath(UUID().lowercased), token: admin), .notFound, "Visit not found")
            #expect(try await F.visit(app, vet, visitID).status == .ok)
        }
    }

    /// 200 body; the visit and its jobs are gone; its stored objects (current and previous recordings) are removed
    /// in the background; the slot is free again (R20).
    @Test func deleteRemovesTheVisitItsJobsAndItsObjects() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let admin = try await app.token(for: Demo.admin)
            let appointment = Demo.appointmentID(1, app)
            let first = try await F.initiated(app, vet, pet: Demo.pet(1), appointment: appointment)
            try await F.upload(app, first, bytes: F.bytes(100))
            #expect(try await F.complete(app, vet, first.visitID).status == .ok)
            let second = try await F.initiated(app, vet, pet: Demo.pet(1), appointment: appointment, replaceExisting: true)
            try await F.upload(app, second, bytes: F.bytes(200))
            #expect(try await F.complete(app, vet, first.visitID).status == .ok)
            #expect(F.storedKeys(app, pet: Demo.pet(1)).count == 2)
            #expect(try await F.jobs(app, visit: first.visitID).count == 2)
            let other = try await F.recorded(app, vet, pet: Demo.pet(2), appointment: appointment)

            let deleted = try await app.delete(F.visitPath(first.visitID), token: admin)
            #expect(deleted.status == .ok, "\(deleted)")
            #expect(deleted.json.keys == ["message", "visit_id"])
            #expect(deleted.json["message"].string == "Visit transcript deleted")
            #expect(deleted.json["visit_id"].string == first.visitID)

            expectError(try await F.visit(app, vet, first.visitID), .notFound, "Visit not found")
            #expect(try await F.jobs(app, visit: first.visitID) == [])
            #expect(try await F.eventually { F.storedKeys(app, pet: Demo.pet(1)).isEmpty },
                    "left: \(F.storedKeys(app, pet: Demo.pet(1)))")
            #expect(try await F.eventually { !F.objectExists(app, key: first.key) && !F.objectExists(app, key: second.key) })
            // Other visits keep their objects.
            #expect(F.storedKeys(app, pet: Demo.pet(2)).count == 1)
            #expect(try await F.visit(app, vet, other).status == .ok)
            let again = try await F.initiated(app, vet, pet: Demo.pet(1), appointment: appointment)
            #expect(again.visitID != first.visitID)

            // A manual visit can be deleted too.
            let manual = try await app.delete(F.visitPath(Demo.visitID.lowercased), token: admin)
            #expect(manual.status == .ok)
        }
    }
}
