import AppCore
import Fluent
import Foundation
import SQLKit

extension AdminSessionStore {
    /// The studio's admin account: the first one made (the first start makes exactly one).
    func studioAdmin() async throws -> AdminUserRecord? {
        try await AdminUserRecord.query(on: db).sort(\.$createdAt).sort(\.$id).first()
    }

    /// A password set with a reset link: the new hash, the token version moved on and every session revoked (the
    /// one who reset it signs in again). Call inside the reset's write transaction.
    func replacePasswordEverywhere(userID: UUID, newHash: String, now: Date) async throws {
        try await db.sql.raw("""
            UPDATE ad_admin_users SET password_hash = \(bind: newHash), password_changed_at = \(bind: now),
                token_version = token_version + 1
            WHERE id = \(bind: userID)
            """).run()
        try await db.sql.raw("""
            UPDATE ad_admin_sessions SET revoked_at = \(bind: now)
            WHERE admin_user_id = \(bind: userID) AND revoked_at IS NULL
            """).run()
    }
}
