import AppCore
import Foundation
import SQLKit
import Testing
import VaporTesting

/// A visit taken out of `processing` by hand stops its transcription job in the same transaction (contract §5.1):
/// the live job becomes `discarded`, so `/transcribe` works at once and a late result is never applied.
@Suite struct ManualStateChangeJobTests {
    typealias F = RecordingFixtures

    @Test(arguments: ["failed", "processed"]) func putOutOfProcessingDiscardsTheLiveJob(state: String) async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let visitID = try await F.recorded(app, vet, pet: Demo.pet(1), appointment: Demo.appointmentID(1, app))
            let job = try #require(try await F.jobs(app, visit: visitID).first)
            #expect(job.status == "queued")
            let put = try await app.put(F.visitPath(visitID), token: vet, json: ["state": state])
            #expect(put.status == .ok, "\(put)")
            #expect(try await F.jobs(app, visit: visitID).map(\.status) == ["discarded"])
            let again = try await app.send(.POST, F.transcribePath(visitID), token: vet)
            #expect(again.status == .accepted, "\(again)")
            #expect(try await F.jobs(app, visit: visitID) == [
                F.JobRow(id: job.id, storageKey: job.storageKey, status: "queued", attempts: 0)
            ])
        }
    }

    /// A running job is discarded too (its worker's result is then refused: it no longer holds the job).
    @Test func putDiscardsARunningJob() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let visitID = try await F.recorded(app, vet, pet: Demo.pet(2), appointment: Demo.appointmentID(1, app))
            let job = try #require(try await F.jobs(app, visit: visitID).first)
            try await F.exec(app, """
                UPDATE transcription_jobs SET status = 'running', attempts = 1, lease_owner = 'w',
                    lease_expires_at = \(bind: Date().addingTimeInterval(300)) WHERE id = \(bind: job.id)
                """)
            let put = try await app.put(F.visitPath(visitID), token: vet, json: ["state": "failed"])
            #expect(put.status == .ok, "\(put)")
            #expect(try await F.jobs(app, visit: visitID).map(\.status) == ["discarded"])
        }
    }
}
