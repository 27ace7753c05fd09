import AppCore
import Fluent
import Foundation
import SQLKit
import Vapor

/// Objects to remove again after their record was deleted (`ad_object_purges`): a photo's presigned PUT stays
/// valid for up to 15 minutes after it was issued, and S3 cannot refuse it, so a deleted photo's key is removed
/// once more after that URL has expired (plus a margin for an upload that was under way).
enum ObjectPurges {
    static let margin: TimeInterval = 15 * 60

    /// Records `key` for removal after `urlExpiresAt` (inside the transaction that deletes the record).
    static func schedule(key: String, urlExpiresAt: Date, now: Date, on db: any Database) async throws {
        let due = max(urlExpiresAt, now).addingTimeInterval(margin)
        try await db.sql.raw("""
            INSERT INTO ad_object_purges (object_key, purge_after, created_at)
            VALUES (\(bind: key), \(bind: due), \(bind: now))
            ON CONFLICT (object_key) DO UPDATE SET purge_after = excluded.purge_after
            """).run()
    }

    /// Removes the due objects (a removal that fails is retried on the next run).
    static func runDue(_ app: Application, now: Date) async throws {
        let due = try await app.db.sql.raw("""
            SELECT object_key FROM ad_object_purges WHERE purge_after <= \(bind: now) ORDER BY purge_after LIMIT 1000
            """).all().map { try $0.decode(column: "object_key", as: String.self) }
        for key in due {
            do {
                try await app.photoStorage.delete(key)
            } catch {
                app.logger.warning("a deleted photo's object could not be removed; retried later")
                continue
            }
            try await app.db.sql.raw("DELETE FROM ad_object_purges WHERE object_key = \(bind: key)").run()
        }
    }
}
