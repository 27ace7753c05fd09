import AppCore
import Fluent
import Foundation
import SQLKit

/// Every statement on `password_resets` (M0131). A link's token is kept only as its SHA-256.
struct PasswordResetStore: Sendable {
    let db: any Database

    /// Stores a new link for `userID`.
    func create(userID: UUID, tokenHash: String, expiresAt: Date, now: Date) async throws {
        try await db.sql.raw("""
            INSERT INTO password_resets (id, user_id, token_hash, created_at, expires_at)
            VALUES (\(bind: UUID()), \(bind: userID), \(bind: tokenHash), \(bind: now), \(bind: expiresAt))
            """).run()
    }

    /// Whether the link is unused and unexpired, without using it (a cheap check before the slow password hash).
    func isUsable(tokenHash: String, now: Date) async throws -> Bool {
        try await db.sql.raw("""
            SELECT id FROM password_resets
            WHERE token_hash = \(bind: tokenHash) AND used_at IS NULL AND expires_at > \(bind: now)
            """).first() != nil
    }

    /// Uses the link whose token hashes to `tokenHash`, if it is unused and unexpired, and returns its user. One
    /// statement decides, so of two concurrent uses of one link exactly one gets the user.
    func use(tokenHash: String, now: Date) async throws -> UUID? {
        struct Row: Decodable {
            let userID: UUID

            enum CodingKeys: String, CodingKey { case userID = "user_id" }
        }
        return try await db.sql.raw("""
            UPDATE password_resets SET used_at = \(bind: now)
            WHERE token_hash = \(bind: tokenHash) AND used_at IS NULL AND expires_at > \(bind: now)
            RETURNING user_id
            """).first(decoding: Row.self)?.userID
    }

    /// Voids the user's other unused links (a reset done with one link ends the others).
    func voidUnused(userID: UUID, now: Date) async throws {
        try await db.sql.raw("""
            UPDATE password_resets SET used_at = \(bind: now) WHERE user_id = \(bind: userID) AND used_at IS NULL
            """).run()
    }

    /// Links older than a day are of no use to anyone; they go when a new one is made.
    func prune(before cutoff: Date) async throws {
        try await db.sql.raw("DELETE FROM password_resets WHERE expires_at < \(bind: cutoff)").run()
    }
}
