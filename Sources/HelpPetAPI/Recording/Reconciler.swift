import AppCore
import Fluent
import Foundation
import ObjectStorage
import SQLKit
import Transcription
import Vapor

/// Finishes what clients and crashes leave behind (contract §5.1, "Reconciler"): uploads that landed without a
/// complete call are completed, reservations that never received a file are removed, and processing visits
/// without a live transcription job get one. Single instance across processes (`task_leases`).
struct Reconciler: Sendable {
    static let leaseName = "reconciler"
    static let leaseDuration: TimeInterval = 30
    static let maxStorageChecksPerRun = 200
    static let legacyReservationLifetime: TimeInterval = 15 * 60
    static let presignedWindow: TimeInterval = 7 * 86_400
    static let pendingLifetime: TimeInterval = 86_400

    let storage: RecordingStorage
    let graceSeconds: TimeInterval
    let clock: any AppClock
    let metrics: MetricsRegistry

    /// One run; false when another process holds the lease. The lease is short and renewed while the run lasts,
    /// so a process killed in the middle of a run blocks the others for at most `leaseDuration`.
    @discardableResult
    func runOnce(on db: any Database, logger: Logger) async throws -> Bool {
        let now = WireTime.truncated(clock.now())
        let clock = self.clock
        // `Void?`: nil when another process holds the lease.
        let ran: Void? = try await TaskLease.whileHolding(
            Self.leaseName, owner: ProcessIdentity.current, duration: Self.leaseDuration,
            now: { WireTime.truncated(clock.now()) }, on: db
        ) {
            metrics.counter("helppet_reconciler_runs_total").increment()
            var budget = Self.maxStorageChecksPerRun
            for visit in try await candidates(now: now, on: db) where budget > 0 {
                try await reconcile(visit, budget: &budget, now: now, on: db, logger: logger)
            }
            try await settleExpiredIntents(budget: &budget, now: now, on: db, logger: logger)
            try await purgeDeadIntents(budget: &budget, now: now, on: db, logger: logger)
            try await requeueOrphanedJobs(now: now, on: db)
            try await publishJobGauges(on: db)
        }
        return ran != nil
    }

    /// `new` recording visits due for a storage check, never-checked first, at most 200 per run.
    func candidates(now: Date, on db: any Database) async throws -> [Visit] {
        let presignedFrom = now.addingTimeInterval(-Self.presignedWindow)
        let presignedUntil = now.addingTimeInterval(-graceSeconds)
        let reservationExpired = now.addingTimeInterval(-Self.legacyReservationLifetime)
        return try await VisitStore(db: db).reconcileCandidates(
            now: now, presignedIssuedFrom: presignedFrom, until: presignedUntil,
            reservationExpiredBefore: reservationExpired, limit: Self.maxStorageChecksPerRun)
    }

    /// One `new` visit: completed when an object landed under any key issued for it (not only the latest one);
    /// otherwise deleted when it is pending and nothing can arrive any more, else checked again later.
    func reconcile(_ visit: Visit, budget: inout Int, now: Date, on db: any Database, logger: Logger) async throws {
        guard let key = visit.storageKey else { return }
        let intents = try await UploadIntentStore(db: db).unsettled(visitID: visit.id!)
        // Not enough HEAD requests left in this run for all its keys: the visit waits for the next run.
        guard intents.count <= budget else { budget = 0; return }
        budget -= intents.count
        let landed = try await SlotLanding.heads(intents, storage: storage)
        if !landed.isEmpty {
            let completed = try await RecordingCompletion.settle(
                visitID: visit.id!, landed: landed, source: .reconciler, details: .none, actor: nil, now: now, on: db,
                metrics: metrics)
            if completed { logger.notice("reconciler completed an uploaded recording", metadata: ["visit": .string(visit.id!.lowercased)]) }
            if completed || landed.contains(where: { $0.intent.status == .open }) { return }
        }
        let since = visit.uploadMethod == "multipart" ? (visit.reservedAt ?? visit.uploadURLIssuedAt) : visit.uploadURLIssuedAt
        let age = since.map { now.timeIntervalSince($0) } ?? Self.pendingLifetime
        let expired = visit.uploadMethod == "multipart" || age > Self.pendingLifetime
        // An older URL of the slot (a legacy upload moves to the next attempt while one is live) may still bring
        // the recording: the visit stays until every URL it handed out has expired.
        let urlUsable = try await UploadIntentStore(db: db).hasUsableURL(visitID: visit.id!, now: now)
        if visit.isPending && expired && !urlUsable {
            // Nothing was recorded and the upload URL (or the legacy request) is long gone.
            try await VisitStore(db: db).deleteAbandonedSlot(
                visit.id!, key: key, uploadURLIssuedAt: visit.uploadURLIssuedAt, reservedAt: visit.reservedAt)
            return
        }
        // Not there yet: check again later, backing off with the age of the last URL or reservation.
        let delay = max(graceSeconds, min(age / 2, 3600))
        try await VisitStore(db: db).reconcileLater(visit.id!, key: key, at: now.addingTimeInterval(delay))
    }

    /// Every `processing` visit whose current key has no queued or running job gets its job re-queued.
    func requeueOrphanedJobs(now: Date, on db: any Database) async throws {
        for (id, key) in try await TranscriptionJobStore.processingVisitsWithoutLiveJob(on: db) {
            try await db.writeTransaction { db in
                guard let visit = try await VisitStore(db: db).lockedRow(id), visit.state == .processing,
                    visit.storageKey == key, try await !TranscriptionJobStore.isLive(visitID: id, storageKey: key, on: db)
                else { return }
                let jobID = try await TranscriptionJobStore.requeue(visitID: id, storageKey: key, now: now, on: db)
                var patch = MetadataPatch()
                patch.set["transcription_job_id"] = .string(jobID.lowercased)
                try await VisitStore(db: db).setMetadata(
                    id, try patch.sqlValue(current: visit.metadata, on: db), touching: nil)
            }
        }
    }

    /// `helppet_transcription_jobs{status}`.
    func publishJobGauges(on db: any Database) async throws {
        for (status, n) in try await TranscriptionJobStore.countsByStatus(on: db) {
            metrics.gauge("helppet_transcription_jobs", labels: [("status", status.rawValue)]).set(Double(n))
        }
    }
}
