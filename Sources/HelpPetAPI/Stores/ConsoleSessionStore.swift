import AppCore
import Fluent
import Foundation
import SQLKit

/// The clinic console's sessions (M0121).
enum ConsoleSessionStore {
    struct LiveSession: Decodable, Sendable {
        let user_id: UUID
        let token_version: Int
    }

    static func create(
        tokenHash: String, userID: UUID, tokenVersion: Int, now: Date, lifetime: TimeInterval, on db: any Database
    ) async throws {
        try await db.sql.raw("""
            INSERT INTO console_sessions (id, token_hash, user_id, token_version, created_at, expires_at)
            VALUES (\(bind: UUID()), \(bind: tokenHash), \(bind: userID), \(bind: tokenVersion), \(bind: now),
                \(bind: now.addingTimeInterval(lifetime)))
            """).run()
    }

    /// The session's user and the token version it was opened with, while neither expired nor revoked.
    static func live(tokenHash: String, now: Date, on db: any Database) async throws -> LiveSession? {
        try await db.sql.raw("""
            SELECT user_id, token_version FROM console_sessions
            WHERE token_hash = \(bind: tokenHash) AND revoked_at IS NULL AND expires_at > \(bind: now)
            """).first(decoding: LiveSession.self)
    }

    static func revoke(tokenHash: String, now: Date, on db: any Database) async throws {
        try await db.sql.raw("""
            UPDATE console_sessions SET revoked_at = \(bind: now) WHERE token_hash = \(bind: tokenHash) AND revoked_at IS NULL
            """).run()
    }

    /// Expired and revoked rows are of no use after a day; removed at sign-in so the table stays small.
    static func prune(before cutoff: Date, on db: any Database) async throws {
        try await db.sql.raw("""
            DELETE FROM console_sessions WHERE expires_at < \(bind: cutoff) OR revoked_at < \(bind: cutoff)
            """).run()
    }
}
