import AppCore
import Fluent
import Foundation
import SQLKit

/// Every statement on `ad_admin_password_resets` (M0213). A link's token is kept only as its SHA-256.
struct AdminPasswordResetStore: Sendable {
    let db: any Database

    func create(adminUserID: UUID, tokenHash: String, expiresAt: Date, now: Date) async throws {
        try await db.sql.raw("""
            INSERT INTO ad_admin_password_resets (id, admin_user_id, token_hash, created_at, expires_at)
            VALUES (\(bind: UUID()), \(bind: adminUserID), \(bind: tokenHash), \(bind: now), \(bind: expiresAt))
            """).run()
    }

    /// Whether the link is unused and unexpired, without using it (a cheap check before the slow password hash).
    func isUsable(tokenHash: String, now: Date) async throws -> Bool {
        try await db.sql.raw("""
            SELECT id FROM ad_admin_password_resets
            WHERE token_hash = \(bind: tokenHash) AND used_at IS NULL AND expires_at > \(bind: now)
            """).first() != nil
    }

    /// Uses the link, if it is unused and unexpired, and returns its admin. One statement decides, so of two
    /// concurrent uses of one link exactly one gets the admin.
    func use(tokenHash: String, now: Date) async throws -> UUID? {
        struct Row: Decodable {
            let adminUserID: UUID

            enum CodingKeys: String, CodingKey { case adminUserID = "admin_user_id" }
        }
        return try await db.sql.raw("""
            UPDATE ad_admin_password_resets SET used_at = \(bind: now)
            WHERE token_hash = \(bind: tokenHash) AND used_at IS NULL AND expires_at > \(bind: now)
            RETURNING admin_user_id
            """).first(decoding: Row.self)?.adminUserID
    }

    /// Voids the admin's other unused links (a reset done with one link ends the others).
    func voidUnused(adminUserID: UUID, now: Date) async throws {
        try await db.sql.raw("""
            UPDATE ad_admin_password_resets SET used_at = \(bind: now)
            WHERE admin_user_id = \(bind: adminUserID) AND used_at IS NULL
            """).run()
    }

    /// Links older than a day are of no use to anyone; they go when a new one is made.
    func prune(before cutoff: Date) async throws {
        try await db.sql.raw("DELETE FROM ad_admin_password_resets WHERE expires_at < \(bind: cutoff)").run()
    }
}
