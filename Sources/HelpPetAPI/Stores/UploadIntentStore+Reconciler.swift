import AppCore
import Fluent
import Foundation
import SQLKit

/// The reconciler's reads and deletes of upload intents (docs/recording-safety.md).
extension UploadIntentStore {
    /// Intents of live visits still waiting (open or superseded) whose URL expired before `cutoff`, oldest first.
    func expiredUnsettled(before cutoff: Date, limit: Int) async throws -> [UploadIntent] {
        try await db.sql.raw("""
            SELECT * FROM upload_intents
            WHERE visit_id IS NOT NULL AND status IN ('open', 'superseded') AND expires_at < \(bind: cutoff)
            ORDER BY expires_at, id
            LIMIT \(literal: limit)
            """).all().map(UploadIntent.init(row:))
    }

    /// Intents of deleted visits whose URL expired before `cutoff`, oldest first: their keys are to be removed.
    func deadKeys(before cutoff: Date, limit: Int) async throws -> [(id: UUID, key: String)] {
        try await db.sql.raw("""
            SELECT id, storage_key FROM upload_intents WHERE visit_id IS NULL AND expires_at < \(bind: cutoff)
            ORDER BY expires_at, id
            LIMIT \(literal: limit)
            """).all().map { row in
                (try row.decode(column: "id", as: UUID.self), try row.decode(column: "storage_key", as: String.self))
            }
    }

    /// Forgets a dead intent once its key was removed from storage.
    func deleteDead(_ id: UUID) async throws {
        try await db.sql.raw("DELETE FROM upload_intents WHERE id = \(bind: id) AND visit_id IS NULL").run()
    }
}
