import AppCore
import Fluent
import Foundation
import SQLKit

/// The `upload_intents` rows (docs/recording-safety.md): every key issued for a visit's recording, written in the
/// transaction that issues it, so no key the server handed out is ever forgotten.
struct UploadIntentStore: Sendable {
    let db: any Database

    /// How long after its URL expired an intent is looked at one last time (uploads already under way when the URL
    /// expired may still finish), and a dead intent's key is removed from storage.
    static let settleDelay: TimeInterval = 3600
    /// A legacy upload's key is written by the server itself while its reservation lives (§4.11).
    static let legacyLifetime: TimeInterval = 15 * 60

    /// Records an issued key. Issuing the same key again refreshes its URL window, type and file name and opens it
    /// again (unless its object already landed). Call it inside the transaction that writes the visit.
    func record(
        visitID: UUID, key: String, attempt: Int, contentType: String, filename: String, method: String,
        issuedAt: Date, lifetime: TimeInterval
    ) async throws {
        let expiresAt = issuedAt.addingTimeInterval(lifetime)
        try await db.sql.raw("""
            INSERT INTO upload_intents (id, visit_id, storage_key, attempt, content_type, filename, upload_method,
                status, issued_at, expires_at, created_at, updated_at)
            VALUES (\(bind: UUID()), \(bind: visitID), \(bind: key), \(bind: attempt), \(bind: contentType),
                \(bind: filename), \(bind: method), 'open', \(bind: issuedAt), \(bind: expiresAt), \(bind: issuedAt),
                \(bind: issuedAt))
            ON CONFLICT (storage_key) DO UPDATE SET attempt = excluded.attempt, content_type = excluded.content_type,
                filename = excluded.filename, upload_method = excluded.upload_method, issued_at = excluded.issued_at,
                expires_at = excluded.expires_at, updated_at = excluded.updated_at,
                status = CASE WHEN upload_intents.status = 'landed' THEN 'landed' ELSE 'open' END
            WHERE upload_intents.visit_id = excluded.visit_id
            """).run()
    }

    /// A replace (`replace_existing: true`) starts a new round: what was issued before can no longer become the
    /// visit's current recording, but is still kept if it lands.
    func supersedeUnsettled(visitID: UUID, now: Date) async throws {
        try await db.sql.raw("""
            UPDATE upload_intents SET status = 'superseded', updated_at = \(bind: now)
            WHERE visit_id = \(bind: visitID) AND status = 'open'
            """).run()
    }

    /// The intents of a visit that still wait for an object, newest first.
    func unsettled(visitID: UUID) async throws -> [UploadIntent] {
        try await db.sql.raw("""
            SELECT * FROM upload_intents
            WHERE visit_id = \(bind: visitID) AND status IN ('open', 'superseded')
            ORDER BY issued_at DESC, attempt DESC, storage_key
            """).all().map(UploadIntent.init(row:))
    }

    /// The intent of one key.
    func find(key: String) async throws -> UploadIntent? {
        try await db.sql.raw("SELECT * FROM upload_intents WHERE storage_key = \(bind: key)").first()
            .map(UploadIntent.init(row:))
    }

    /// Every key ever issued for a visit (whatever became of it).
    func allKeys(visitID: UUID) async throws -> [String] {
        try await db.sql.raw("SELECT storage_key FROM upload_intents WHERE visit_id = \(bind: visitID)").all()
            .map { try $0.decode(column: "storage_key", as: String.self) }
    }

    /// The embedded store's admission rule: a presigned upload to `key` is expected while its intent belongs to an
    /// existing visit, still waits for an object and its URL has not expired.
    func isLive(key: String, now: Date) async throws -> Bool {
        let rows = try await db.sql.raw("""
            SELECT id FROM upload_intents
            WHERE storage_key = \(bind: key) AND visit_id IS NOT NULL AND status IN ('open', 'superseded')
              AND upload_method = 'presigned_post' AND expires_at > \(bind: now)
            """).all()
        return !rows.isEmpty
    }

    /// True while some upload URL of the visit can still be used (the visit must not be deleted meanwhile).
    func hasUsableURL(visitID: UUID, now: Date) async throws -> Bool {
        let rows = try await db.sql.raw("""
            SELECT id FROM upload_intents
            WHERE visit_id = \(bind: visitID) AND status IN ('open', 'superseded') AND expires_at > \(bind: now)
            """).all()
        return !rows.isEmpty
    }

    /// Marks intents whose objects were attached to their visit; only rows still waiting change.
    func markLanded(_ ids: [UUID], now: Date) async throws {
        guard !ids.isEmpty else { return }
        try await db.sql.raw("""
            UPDATE upload_intents SET status = 'landed', updated_at = \(bind: now)
            WHERE id IN (\(binds: ids)) AND status IN ('open', 'superseded')
            """).run()
    }

    /// The final check after the URL expired found nothing.
    func close(_ id: UUID, now: Date) async throws {
        try await db.sql.raw("""
            UPDATE upload_intents SET status = 'closed', updated_at = \(bind: now)
            WHERE id = \(bind: id) AND status IN ('open', 'superseded')
            """).run()
    }
}
