import AppCore
import Foundation
@testable import HelpPetAPI
import SQLKit
import Testing
import VaporTesting

/// The reconciler of contract §5.1, run directly (`Reconciler.runOnce`) with a ManualClock moved past the grace:
/// uploads that landed without a complete call are completed (R11), pending visits that never received anything
/// are deleted, non-pending ones never are, and `processing` visits without a live job get their job re-queued.
@Suite struct RecordingReconcilerTests {
    typealias F = RecordingFixtures

    static func reconcile(_ app: Application, grace: TimeInterval = 1) async throws {
        let reconciler = Reconciler(
            storage: app.recordingStorage, graceSeconds: grace, clock: app.core.clock, metrics: app.core.metrics)
        let ran = try await reconciler.runOnce(on: app.db, logger: app.logger)
        #expect(ran, "the reconciler lease was not available")
    }

    @Test func r11NothingIsLostWithoutACompleteCall() async throws {
        let clock = F.manualClock()
        try await F.withApp(env: ["RECONCILER_INTERVAL_SECONDS": "1", "RECONCILER_GRACE_SECONDS": "1"], clock: clock) { app in
            let vet = try await app.token(for: Demo.vet1)
            let started = try await F.initiated(app, vet, pet: Demo.pet(1), appointment: Demo.appointmentID(1, app))
            let bytes = F.bytes(3_333)
            try await F.upload(app, started, bytes: bytes)

            // Within the grace the visit is not touched.
            try await Self.reconcile(app)
            #expect(try await F.visit(app, vet, started.visitID).json["state"].string == "new")

            clock.advance(by: 2)
            try await Self.reconcile(app)
            let visit = try await F.visit(app, vet, started.visitID)
            #expect(visit.json["state"].string == "processing")
            let metadata = visit.json["metadata"]
            #expect(metadata["completion_source"].string == "reconciler")
            #expect(metadata["file_size_bytes"].int == 3_333)
            #expect(metadata["duration_seconds"].isNull)
            #expect(metadata["device_metadata"].keys.isEmpty && !metadata["device_metadata"].isNull)
            #expect(visit.json["audio_transcript_url"].string == "\(F.baseURL)/storage/\(F.bucket)/\(started.key)")
            let jobs = try await F.jobs(app, visit: started.visitID)
            #expect(jobs.map(\.status) == ["queued"])
            #expect(metadata["transcription_job_id"].string == jobs.first?.id.lowercased)
            #expect(F.metric(app, #"helppet_recordings_completed_total{source="reconciler"}"#) == 1)
            #expect((F.metric(app, "helppet_reconciler_runs_total") ?? 0) >= 2)
            // A late complete is idempotent.
            let late = try await F.complete(app, vet, started.visitID, body: ["file_size_bytes": 1])
            #expect(late.status == .ok)
            #expect(late.json["metadata"]["completion_source"].string == "reconciler")
            try await F.expectPlayback(app, vet, started.visitID, bytes: bytes)
        }
    }

    /// A pending presigned visit whose object is missing: backed off while young, deleted after 24 hours.
    @Test func pendingVisitsWithoutUploadAreDeletedAfterADay() async throws {
        let clock = F.manualClock()
        try await F.withApp(clock: clock) { app in
            let vet = try await app.token(for: Demo.vet1)
            let appointment = Demo.appointmentID(1, app)
            let started = try await F.initiated(app, vet, pet: Demo.pet(2), appointment: appointment)
            clock.advance(by: 600)
            try await Self.reconcile(app)
            let row = try #require(try await F.visitRow(app, started.visitID))
            #expect(row.state == "new")
            let after = try #require(row.reconcileAfter)
            // max(grace, min(half the age, 3600)) = 300 s after this run.
            #expect(abs(after.timeIntervalSince(clock.now()) - 300) < 2, "\(after) vs \(clock.now())")

            clock.advance(by: 86_400)
            try await Self.reconcile(app)
            #expect(try await F.visitRow(app, started.visitID) == nil, "pending and expired: deleted")
            let later = try await app.token(for: Demo.vet1)  // tokens expire by the server clock: one issued now
            expectError(try await F.visit(app, later, started.visitID), .notFound, "Visit not found")
            // The client simply initiates again.
            let again = try await F.initiated(app, later, pet: Demo.pet(2), appointment: appointment)
            #expect(again.visitID != started.visitID)
        }
    }

    /// A replaced recording whose new file never arrives is not pending: it is never deleted.
    @Test func nonPendingVisitsAreNeverDeleted() async throws {
        let clock = F.manualClock()
        try await F.withApp(clock: clock) { app in
            let vet = try await app.token(for: Demo.vet1)
            let appointment = Demo.appointmentID(1, app)
            let visitID = try await F.recorded(app, vet, pet: Demo.pet(1), appointment: appointment)
            _ = try await F.initiated(app, vet, pet: Demo.pet(1), appointment: appointment, replaceExisting: true)
            clock.advance(by: 2 * 86_400)
            try await Self.reconcile(app)
            let later = try await app.token(for: Demo.vet1)  // tokens expire by the server clock: one issued now
            let row = try #require(try await F.visitRow(app, visitID))
            #expect(row.state == "new")
            #expect(try await F.visit(app, later, visitID).json["metadata"]["previous_recordings"].count == 1)
        }
    }

    /// Legacy reservations older than 15 minutes: completed when the object is there; a pending one without an
    /// object is deleted; a non-pending one stays `new` with its reservation released.
    @Test func staleLegacyReservations() async throws {
        let clock = F.manualClock()
        try await F.withApp(clock: clock) { app in
            let vet = try await app.token(for: Demo.vet1)
            let appointment = Demo.appointmentID(1, app)
            let stale = clock.now().addingTimeInterval(-16 * 60)

            // Bella: reservation whose object landed (the server stored it, then crashed before completing).
            let bella = try await F.initiated(app, vet, pet: Demo.pet(1), appointment: appointment)
            try await F.upload(app, bella, bytes: F.bytes(1_234))
            // Max: a pending reservation that never received its file.
            let max = try await F.initiated(app, vet, pet: Demo.pet(2), appointment: appointment)
            // Mittens: a replaced recording whose legacy upload never finished.
            let mittens = try await F.recorded(app, vet, pet: Demo.pet(3), appointment: appointment)
            _ = try await F.initiated(app, vet, pet: Demo.pet(3), appointment: appointment, replaceExisting: true)
            for id in [bella.visitID, max.visitID, mittens] {
                let uuid = try F.uuid(id)
                try await F.exec(app, """
                    UPDATE visits SET upload_method = 'multipart', reserved_at = \(bind: stale) WHERE id = \(bind: uuid)
                    """)
                // A legacy reservation's upload intent: the server's own write, expired with the reservation.
                try await F.exec(app, """
                    UPDATE upload_intents SET upload_method = 'multipart', issued_at = \(bind: stale),
                        expires_at = \(bind: stale.addingTimeInterval(15 * 60))
                    WHERE visit_id = \(bind: uuid) AND status = 'open'
                    """)
            }
            try await Self.reconcile(app)

            let completed = try await F.visit(app, vet, bella.visitID)
            #expect(completed.json["state"].string == "processing")
            #expect(completed.json["metadata"]["completion_source"].string == "reconciler")
            #expect(completed.json["metadata"]["file_size_bytes"].int == 1_234)
            #expect(try await F.visitRow(app, max.visitID) == nil)
            let released = try #require(try await F.visitRow(app, mittens))
            #expect(released.state == "new")
            #expect(released.reservedAt == nil)
        }
    }

    /// A live legacy reservation (younger than 15 minutes) is left alone.
    @Test func liveLegacyReservationsAreLeftAlone() async throws {
        let clock = F.manualClock()
        try await F.withApp(clock: clock) { app in
            let vet = try await app.token(for: Demo.vet1)
            let started = try await F.initiated(app, vet, pet: Demo.pet(2), appointment: Demo.appointmentID(1, app))
            let uuid = try F.uuid(started.visitID)
            let reservedAt = clock.now().addingTimeInterval(-60)
            try await F.exec(app, """
                UPDATE visits SET upload_method = 'multipart', reserved_at = \(bind: reservedAt) WHERE id = \(bind: uuid)
                """)
            clock.advance(by: 120)
            try await Self.reconcile(app)
            let row = try #require(try await F.visitRow(app, started.visitID))
            #expect(row.state == "new")
            #expect(row.reservedAt == reservedAt)
        }
    }

    /// Step 3: a `processing` visit without a queued or running job for its key gets that job re-queued — the same
    /// row when it exists (attempts 0), one new row otherwise; never a second row for a key.
    @Test func processingVisitsWithoutALiveJobAreRequeued() async throws {
        try await F.withApp { app in
            let vet = try await app.token(for: Demo.vet1)
            let appointment = Demo.appointmentID(1, app)
            let failedJob = try await F.recorded(app, vet, pet: Demo.pet(1), appointment: appointment)
            let noJob = try await F.recorded(app, vet, pet: Demo.pet(2), appointment: appointment)
            let liveJob = try await F.recorded(app, vet, pet: Demo.pet(3), appointment: appointment)
            let original = try #require(try await F.jobs(app, visit: failedJob).first)
            try await F.exec(app, """
                UPDATE transcription_jobs SET status = 'failed', attempts = 3, last_error = 'boom'
                WHERE visit_id = \(bind: try F.uuid(failedJob))
                """)
            try await F.exec(app, "DELETE FROM transcription_jobs WHERE visit_id = \(bind: try F.uuid(noJob))")
            let live = try await F.jobs(app, visit: liveJob)

            try await Self.reconcile(app)

            let requeued = try await F.jobs(app, visit: failedJob)
            #expect(requeued == [F.JobRow(id: original.id, storageKey: original.storageKey, status: "queued", attempts: 0)])
            let inserted = try await F.jobs(app, visit: noJob)
            #expect(inserted.map(\.status) == ["queued"])
            let visit = try await F.visit(app, vet, noJob)
            #expect(visit.json["metadata"]["transcription_job_id"].string == inserted.first?.id.lowercased)
            #expect(try await F.jobs(app, visit: liveJob) == live, "a live job is not touched")
            let errors = try await app.db.sql.raw("""
                SELECT last_error FROM transcription_jobs WHERE id = \(bind: original.id)
                """).all()
            #expect(try errors.first?.decode(column: "last_error", as: String?.self) == nil)
        }
    }
}
