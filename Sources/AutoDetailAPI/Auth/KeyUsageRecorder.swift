import AppCore
import Fluent
import Foundation
import NIOConcurrencyHelpers
import SQLKit
import Vapor

/// Key usage (contract §2.3): uses are accumulated in memory per process and written at most every 10 seconds (and at
/// shutdown), one update per key, never once per request. A failed write keeps the uses for the next flush; a failure
/// never reaches the request that made the use.
final class KeyUsageRecorder: Sendable {
    static let flushInterval: Duration = .seconds(10)

    struct Pending: Sendable {
        var count = 0
        var lastUsedAt: Date
        var installID: UUID?
        var lastPath: String
    }

    private let pending = NIOLockedValueBox<[UUID: Pending]>([:])

    init() {}

    func record(_ caller: KeyCaller, path: String, now: Date) {
        let trimmedPath = String(path.prefix(200))
        pending.withLockedValue { all in
            var entry = all[caller.keyID] ?? Pending(lastUsedAt: now, installID: caller.installID, lastPath: trimmedPath)
            entry.count += 1
            if now >= entry.lastUsedAt {
                entry.lastUsedAt = now
                entry.lastPath = trimmedPath
            }
            all[caller.keyID] = entry
        }
    }

    /// Writes every pending use in one write transaction.
    func flush(on db: any Database, logger: Logger) async {
        let batch = pending.withLockedValue { all -> [UUID: Pending] in
            defer { all = [:] }
            return all
        }
        guard !batch.isEmpty else { return }
        do {
            try await db.writeTransaction { db in
                for (keyID, use) in batch {
                    try await db.sql.raw("""
                        UPDATE ad_api_keys SET request_count = request_count + \(bind: use.count),
                            last_used_at = CASE WHEN last_used_at IS NULL OR last_used_at < \(bind: use.lastUsedAt)
                                THEN \(bind: use.lastUsedAt) ELSE last_used_at END
                        WHERE id = \(bind: keyID)
                        """).run()
                    if let installID = use.installID {
                        try await db.sql.raw("""
                            UPDATE ad_install_profiles SET
                                last_activity_path = CASE WHEN last_seen_at IS NULL OR last_seen_at <= \(bind: use.lastUsedAt)
                                    THEN \(bind: use.lastPath) ELSE last_activity_path END,
                                last_seen_at = CASE WHEN last_seen_at IS NULL OR last_seen_at < \(bind: use.lastUsedAt)
                                    THEN \(bind: use.lastUsedAt) ELSE last_seen_at END
                            WHERE id = \(bind: installID)
                            """).run()
                    }
                }
            }
        } catch {
            logger.warning("key usage could not be recorded; retrying later", metadata: [
                "error": .string(String(reflecting: type(of: error))), "keys": .stringConvertible(batch.count),
            ])
            pending.withLockedValue { all in
                for (keyID, use) in batch {
                    guard var current = all[keyID] else {
                        all[keyID] = use
                        continue
                    }
                    current.count += use.count
                    if use.lastUsedAt > current.lastUsedAt {
                        current.lastUsedAt = use.lastUsedAt
                        current.lastPath = use.lastPath
                    }
                    all[keyID] = current
                }
            }
        }
    }
}

/// Flushes the recorder every 10 seconds and once more at shutdown.
struct KeyUsageFlushing: LifecycleHandler {
    let recorder: KeyUsageRecorder
    let periodic: PeriodicTask

    init(recorder: KeyUsageRecorder) {
        self.recorder = recorder
        self.periodic = PeriodicTask(name: "autodetail-key-usage", interval: KeyUsageRecorder.flushInterval) { app in
            await recorder.flush(on: app.db, logger: app.logger)
        }
    }

    func didBootAsync(_ application: Application) async throws { try await periodic.didBootAsync(application) }

    func shutdownAsync(_ application: Application) async {
        await periodic.shutdownAsync(application)
        await recorder.flush(on: application.db, logger: application.logger)
    }
}
