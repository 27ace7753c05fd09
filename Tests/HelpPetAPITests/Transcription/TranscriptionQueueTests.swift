import AppCore
import Foundation
import HelpPetAPI
import SQLKit
import Testing
import Transcription
import VaporTesting

/// The job queue's rules (contract §5.1) on the test's database engine (SQLite, or PostgreSQL with
/// `DATABASE_URL`), driven with explicit instants: claim with a lease, no double claim, backoff 30 s then 120 s,
/// retaking an expired lease, release, and results applied only while the visit is still the job's.
@Suite struct TranscriptionQueueTests {
    typealias F = RecordingFixtures

    static func store(_ owner: String) -> TranscriptionJobStore {
        TranscriptionJobStore(owner: owner, leaseSeconds: 300, retryDelays: [30, 120])
    }

    static func result(_ text: String, at date: Date) -> VisitTranscriptionJobs.Result {
        .init(
            fullText: text, segments: [.object(["start": .number(0), "end": .number(1), "text": .string(text)])],
            engine: "whisper", model: "whisper-tiny.en", language: "en", audioDurationSeconds: 1, realTimeFactor: 0.1,
            completedAt: date, draftSummary: "Complaint: \(text)")
    }

    @Test func claimLeaseBackoffAndRetake() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let visitID = try await F.recorded(app, vet, pet: Demo.pet(1), appointment: Demo.appointmentID(1, app))
            let job = try #require(try await F.jobs(app, visit: visitID).first)
            let a = Self.store("worker-a")
            let b = Self.store("worker-b")
            let t0 = Date().addingTimeInterval(1)

            let first = try #require(try await a.claim(now: t0, on: app.db))
            #expect(first.id == job.id && first.attempts == 1 && first.storageKey == job.storageKey)
            #expect(try await b.claim(now: t0, on: app.db) == nil, "a running job with a live lease is not claimed")
            #expect(try await a.renew(first, now: t0.addingTimeInterval(60), on: app.db))

            // Attempt 1 fails: back in 30 s.
            try await a.retryLater(first, error: "boom", now: t0.addingTimeInterval(61), on: app.db)
            #expect(try await F.jobs(app, visit: visitID).first?.status == "queued")
            #expect(try await b.claim(now: t0.addingTimeInterval(61 + 29), on: app.db) == nil)
            let second = try #require(try await b.claim(now: t0.addingTimeInterval(61 + 31), on: app.db))
            #expect(second.attempts == 2)
            // Attempt 2 fails: back in 120 s.
            try await b.retryLater(second, error: "boom", now: t0.addingTimeInterval(100), on: app.db)
            #expect(try await a.claim(now: t0.addingTimeInterval(100 + 119), on: app.db) == nil)
            let third = try #require(try await a.claim(now: t0.addingTimeInterval(100 + 121), on: app.db))
            #expect(third.attempts == 3)

            // Its worker dies: the lease expires and another worker takes the job again; the old owner lost it.
            let retaken = try #require(try await b.claim(now: t0.addingTimeInterval(221 + 301), on: app.db))
            #expect(retaken.attempts == 4 && retaken.owner != third.owner)
            #expect(try await a.renew(third, now: t0.addingTimeInterval(523), on: app.db) == false)
            let lost = try await VisitTranscriptionJobs.applySuccess(
                jobID: third.id, owner: third.owner, visitID: third.visitID, storageKey: third.storageKey,
                result: Self.result("late", at: t0), on: app.db)
            #expect(lost == .leaseLost)

            // Shutdown releases it without counting the attempt.
            try await b.release(retaken, now: t0.addingTimeInterval(524), on: app.db)
            #expect(try await F.jobs(app, visit: visitID) == [
                F.JobRow(id: job.id, storageKey: job.storageKey, status: "queued", attempts: 3)
            ])
        }
    }

    /// Success: one transaction sets the text, the draft summary, the metadata and `processed`; the job is `done`.
    @Test func successIsAppliedWithItsMetadata() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let visitID = try await F.recorded(app, vet, pet: Demo.pet(1), appointment: Demo.appointmentID(1, app))
            let job = try #require(try await Self.store("w").claim(now: Date().addingTimeInterval(1), on: app.db))
            let applied = try await VisitTranscriptionJobs.applySuccess(
                jobID: job.id, owner: job.owner, visitID: job.visitID, storageKey: job.storageKey,
                result: Self.result("Bella presents with a cough.", at: Date()), on: app.db)
            #expect(applied == .applied)
            let visit = try await F.visit(app, vet, visitID)
            #expect(visit.json["state"].string == "processed")
            #expect(visit.json["full_text"].string == "Bella presents with a cough.")
            #expect(visit.json["summary"].string == "Complaint: Bella presents with a cough.")
            let metadata = visit.json["metadata"]
            #expect(metadata["summary_status"].string == "draft")
            #expect(metadata["transcription_engine"].string == "whisper")
            #expect(metadata["transcription_model"].string == "whisper-tiny.en")
            #expect(metadata["transcript_length"].int == 28)
            #expect(metadata["transcript_segments"].count == 1)
            #expect(metadata["language"].string == "en")
            #expect(metadata["audio_duration_seconds"].double == 1)
            #expect(metadata["real_time_factor"].double == 0.1)
            #expect(metadata["transcription_completed_at"].string != nil)
            #expect(metadata["s3_key"].string != nil, "merged, not replaced")
            #expect(try await F.jobs(app, visit: visitID).map(\.status) == ["done"])
            // The pet owner does not see the draft.
            let owner = try await app.token(for: Demo.owner1)
            #expect(try await F.visit(app, owner, visitID).json["summary"].isNull)
        }
    }

    /// Stale results: the visit was replaced (new storage key) or finished by hand meanwhile → discarded/refused,
    /// the visit untouched; a deleted visit takes its jobs with it.
    @Test func staleResultsAreDiscarded() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let appointment = Demo.appointmentID(1, app)
            let store = Self.store("w")

            // Replaced while transcribing.
            let replaced = try await F.recorded(app, vet, pet: Demo.pet(1), appointment: appointment)
            let job = try #require(try await store.claim(now: Date().addingTimeInterval(1), on: app.db))
            _ = try await F.initiated(app, vet, pet: Demo.pet(1), appointment: appointment, replaceExisting: true)
            let before = try await F.visit(app, vet, replaced)
            let outcome = try await VisitTranscriptionJobs.applySuccess(
                jobID: job.id, owner: job.owner, visitID: job.visitID, storageKey: job.storageKey,
                result: Self.result("stale", at: Date()), on: app.db)
            #expect(outcome == .discarded)
            let after = try await F.visit(app, vet, replaced)
            #expect(after.json["state"].string == "new" && after.json["full_text"].string == before.json["full_text"].string)
            #expect(try await F.jobs(app, visit: replaced).first { $0.id == job.id }?.status == "discarded")

            // Finished by hand (PUT processed) while transcribing: the PUT discarded the job; the result is refused.
            let manual = try await F.recorded(app, vet, pet: Demo.pet(2), appointment: appointment)
            let job2 = try #require(try await store.claim(now: Date().addingTimeInterval(1), on: app.db))
            #expect(job2.visitID.lowercased == manual)
            let put = try await app.put(F.visitPath(manual), token: vet, json: ["state": "failed"])
            #expect(put.status == .ok)
            let failure = try await VisitTranscriptionJobs.applyFailure(
                jobID: job2.id, owner: job2.owner, visitID: job2.visitID, storageKey: job2.storageKey, message: "x",
                at: Date(), on: app.db)
            #expect(failure == .leaseLost)
            #expect(try await F.visit(app, vet, manual).json["metadata"]["transcription_error"].isAbsent)

            // Deleted while transcribing.
            let deleted = try await F.recorded(app, vet, pet: Demo.pet(3), appointment: appointment)
            let job3 = try #require(try await store.claim(now: Date().addingTimeInterval(1), on: app.db))
            #expect(job3.visitID.lowercased == deleted)
            let admin = try await app.token(for: Demo.admin)
            #expect(try await app.send(.DELETE, F.visitPath(deleted), token: admin).status == .ok)
            let gone = try await VisitTranscriptionJobs.applySuccess(
                jobID: job3.id, owner: job3.owner, visitID: job3.visitID, storageKey: job3.storageKey,
                result: Self.result("gone", at: Date()), on: app.db)
            #expect(gone == .leaseLost)
        }
    }

    /// The final failure: visit `failed` with `transcription_error` and `transcription_failed_at`, job `failed`.
    @Test func finalFailureMarksTheVisitFailed() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let visitID = try await F.recorded(app, vet, pet: Demo.pet(1), appointment: Demo.appointmentID(1, app))
            let job = try #require(try await Self.store("w").claim(now: Date().addingTimeInterval(1), on: app.db))
            let outcome = try await VisitTranscriptionJobs.applyFailure(
                jobID: job.id, owner: job.owner, visitID: job.visitID, storageKey: job.storageKey,
                message: String(repeating: "e", count: 600), at: Date(), on: app.db)
            #expect(outcome == .applied)
            let visit = try await F.visit(app, vet, visitID)
            #expect(visit.json["state"].string == "failed")
            #expect(visit.json["metadata"]["transcription_error"].string?.count == 500)
            #expect(visit.json["metadata"]["transcription_failed_at"].string != nil)
            #expect(try await F.jobs(app, visit: visitID).map(\.status) == ["failed"])
            #expect(visit.json["audio_transcript_url"].string != nil, "the recording stays")
        }
    }
}
