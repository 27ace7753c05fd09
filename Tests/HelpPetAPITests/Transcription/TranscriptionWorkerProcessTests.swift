import Foundation
import Testing

/// The queue shared by several processes (contract §5.1): `server serve --no-worker` for the API and
/// `server worker` processes for the jobs, on SQLite and (with `DATABASE_URL`) PostgreSQL.
@Suite(.serialized) struct TranscriptionWorkerProcessTests {
    typealias Tools = TranscriptionTools

    /// Two worker processes and the reconciler every second: every job is claimed once (attempts 1) and applied
    /// once (one `done` row per visit, `transcription_completed_at` unchanged afterwards).
    @Test(.enabled(if: Tools.whisperRunnable)) func twoWorkersNeverTakeTheSameJob() async throws {
        try Tools.requireWhisper()
        try await withEngineServerDatabase { database, group in
            let env = Tools.env(engine: "whisper", ["RECONCILER_INTERVAL_SECONDS": "1", "RECONCILER_GRACE_SECONDS": "1"])
            let api = try await group.start(database, env: env, arguments: ["--no-worker"])
            _ = try await group.startWorker(database, env: env)
            _ = try await group.startWorker(database, env: env)
            let rows = try await JobRows.open(database)
            defer { Task { await rows.close() } }
            let vet = try await api.client.login(Demo.vet1)
            let harness = TranscriptionHarness(api: api, token: vet)
            let speech = try SpeechFixture.m4a("Max is here for his vaccines. Weight is 30 kilograms.", in: database.directory)
            var visits: [String] = []
            for pet in [Demo.pet(1), Demo.pet(2), Demo.pet(3)] {
                visits.append(try await harness.record(pet: pet, bytes: speech))
            }
            var completedAt: [String: String] = [:]
            for visitID in visits {
                let visit = try await harness.waitForState(visitID, ["processed", "failed"])
                #expect(visit.json["state"].string == "processed", "\(visit)")
                completedAt[visitID] = visit.json["metadata"]["transcription_completed_at"].string
            }
            try await Task.sleep(for: .seconds(3))  // reconciler runs; nothing is transcribed again
            for visitID in visits {
                #expect(try await rows.jobs(visit: visitID) == [.init(status: "done", attempts: 1, lastError: nil)])
                let visit = try await api.client.get(TranscriptionHarness.visitPath(visitID), token: vet)
                #expect(visit.json["metadata"]["transcription_completed_at"].string == completedAt[visitID])
            }
        }
    }

    /// A worker SIGKILLed in the middle of a job: the job stays `running` until its lease expires, then another
    /// worker takes it (attempt 2) and the visit becomes `processed`.
    @Test(.enabled(if: Tools.whisperRunnable)) func jobOfAKilledWorkerIsTakenAgain() async throws {
        try Tools.requireWhisper()
        try await withEngineServerDatabase { database, group in
            let env = Tools.env(engine: "whisper", ["TRANSCRIPTION_LEASE_SECONDS": "6"])
            let api = try await group.start(database, env: env, arguments: ["--no-worker"])
            let rows = try await JobRows.open(database)
            defer { Task { await rows.close() } }
            let vet = try await api.client.login(Demo.vet1)
            let harness = TranscriptionHarness(api: api, token: vet)
            // A longer clip so the first worker is still busy when it is killed.
            let text = Array(repeating: SpeechFixture.visitText, count: 3).joined(separator: " ")
            let visitID = try await harness.record(pet: Demo.pet(1), bytes: try SpeechFixture.m4a(text, in: database.directory))
            let first = try await group.startWorker(database, env: env)
            _ = try await rows.waitForJob(visit: visitID, status: "running")
            await first.kill()
            #expect(try await rows.jobs(visit: visitID).first?.status == "running")
            _ = try await group.startWorker(database, env: env)
            let visit = try await harness.waitForState(visitID, ["processed", "failed"])
            #expect(visit.json["state"].string == "processed", "\(visit)")
            #expect((visit.json["full_text"].string ?? "").lowercased().contains("250 milligrams"), "\(visit)")
            #expect(try await rows.jobs(visit: visitID) == [.init(status: "done", attempts: 2, lastError: nil)])
        }
    }

    /// SIGTERM while a job runs: the worker releases it (back to `queued`, the attempt not counted) and exits
    /// promptly; the next worker finishes it with attempt 1.
    @Test(.enabled(if: Tools.whisperRunnable)) func gracefulShutdownReleasesTheRunningJob() async throws {
        try Tools.requireWhisper()
        try await withEngineServerDatabase { database, group in
            let env = Tools.env(engine: "whisper")
            let api = try await group.start(database, env: env, arguments: ["--no-worker"])
            let rows = try await JobRows.open(database)
            defer { Task { await rows.close() } }
            let vet = try await api.client.login(Demo.vet1)
            let harness = TranscriptionHarness(api: api, token: vet)
            let text = Array(repeating: SpeechFixture.visitText, count: 3).joined(separator: " ")
            let visitID = try await harness.record(pet: Demo.pet(1), bytes: try SpeechFixture.m4a(text, in: database.directory))
            let first = try await group.startWorker(database, env: env)
            _ = try await rows.waitForJob(visit: visitID, status: "running")
            let status = await first.stop(timeout: .seconds(15))
            #expect(status == 0, "\(first.output)")
            #expect(try await rows.jobs(visit: visitID) == [.init(status: "queued", attempts: 0, lastError: nil)])
            _ = try await group.startWorker(database, env: env)
            let visit = try await harness.waitForState(visitID, ["processed", "failed"])
            #expect(visit.json["state"].string == "processed", "\(visit)")
            #expect(try await rows.jobs(visit: visitID) == [.init(status: "done", attempts: 1, lastError: nil)])
        }
    }
}
