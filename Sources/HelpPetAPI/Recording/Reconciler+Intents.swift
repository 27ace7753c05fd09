import AppCore
import Fluent
import Foundation
import ObjectStorage

/// The reconciler's work on upload intents (docs/recording-safety.md), after the `new` visits:
/// - every intent still waiting one settle delay after its URL expired gets its final check: an object found
///   there is attached to its visit (as its recording if the visit is still `new`, else as a previous one),
///   otherwise the intent is closed;
/// - every dead intent (its visit was deleted) whose URL can no longer be used has its key removed from storage,
///   which is what cleans up after a deleted visit on S3, where uploads cannot be refused.
/// Both share the run's budget of storage requests.
extension Reconciler {
    static let maxIntentsPerRun = 200

    func settleExpiredIntents(budget: inout Int, now: Date, on db: any Database, logger: Logger) async throws {
        guard budget > 0 else { return }
        let cutoff = now.addingTimeInterval(-UploadIntentStore.settleDelay)
        let intents = try await UploadIntentStore(db: db).expiredUnsettled(
            before: cutoff, limit: min(budget, Self.maxIntentsPerRun))
        for intent in intents {
            guard let visitID = intent.visitID else { continue }
            budget -= 1
            guard let object = try await storage.head(intent.storageKey) else {
                try await UploadIntentStore(db: db).close(intent.id, now: now)
                continue
            }
            try await RecordingCompletion.settle(
                visitID: visitID, landed: [SlotLanding.Landed(intent: intent, object: object)], source: .reconciler,
                details: .none, actor: nil, now: now, on: db, metrics: metrics)
            logger.notice("reconciler kept a late upload of a recording slot", metadata: ["visit": .string(visitID.lowercased)])
        }
    }

    func purgeDeadIntents(budget: inout Int, now: Date, on db: any Database, logger: Logger) async throws {
        guard budget > 0 else { return }
        let cutoff = now.addingTimeInterval(-UploadIntentStore.settleDelay)
        let store = UploadIntentStore(db: db)
        for (id, key) in try await store.deadKeys(before: cutoff, limit: min(budget, Self.maxIntentsPerRun)) {
            budget -= 1
            do {
                try await storage.store.delete(bucket: storage.bucket, key: key)
            } catch {
                // Kept for the next run.
                logger.warning("object under a deleted visit's key could not be removed", metadata: ["key": .string(key)])
                continue
            }
            try await store.deleteDead(id)
            metrics.counter("helppet_reconciler_dead_keys_removed_total").increment()
        }
    }
}
