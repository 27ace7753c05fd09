import AppCore
import Fluent
import Foundation
import SQLKit
import Vapor

/// Removes uploads that were never linked, 24 hours after presign, with their objects (contract §3.4), the objects
/// of deleted photos once their upload URL has expired (ObjectPurges), and expired idempotency records (§3.8). The row is deleted first (only if still unlinked), then the object, outside any
/// transaction: a link racing with the cleanup either wins (the row is kept) or finds the ref gone.
enum UploadCleanup {
    static let interval: Duration = .seconds(3600)
    static let maxAge: TimeInterval = 86_400

    static func runOnce(_ app: Application) async throws {
        let now = app.core.clock.now()
        let cutoff = now.addingTimeInterval(-maxAge)
        let stale = try await app.db.sql.raw("""
            SELECT id FROM ad_uploads WHERE photo_id IS NULL AND created_at < \(bind: cutoff) LIMIT 1000
            """).all().map { try $0.decode(column: "id", as: UUID.self) }
        for id in stale {
            let removed = try await app.db.sql.raw("""
                DELETE FROM ad_uploads WHERE id = \(bind: id) AND photo_id IS NULL RETURNING object_key
                """).all()
            guard let key = try removed.first?.decode(column: "object_key", as: String.self) else { continue }
            do {
                try await app.photoStorage.delete(key)
            } catch {
                app.logger.warning("unlinked upload's object could not be removed", metadata: ["upload": .string(id.lowercased)])
            }
        }
        // Deleted photos: whatever their still-valid upload URL re-created (S3 cannot refuse it) goes as well.
        try await ObjectPurges.runDue(app, now: now)
        try await IdempotencyRecords.purge(olderThan: cutoff, on: app.db)
    }
}
