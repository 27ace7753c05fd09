import AppCore
import Fluent
import Foundation
import PostgresNIO
import SQLKit

/// The clinic console's sessions (M0121, M0125).
struct ConsoleSessionStore: Sendable {
    let db: any Database

    struct LiveSession: Decodable, Sendable {
        let userID: UUID
        let tokenVersion: Int

        enum CodingKeys: String, CodingKey {
            case userID = "user_id"
            case tokenVersion = "token_version"
        }
    }

    /// One live session as its user sees it on the account page.
    struct Device: Decodable, Sendable {
        let tokenHash: String
        let createdAt: Date
        let expiresAt: Date
        let userAgent: String?
        let clientIP: String?

        enum CodingKeys: String, CodingKey {
            case tokenHash = "token_hash", createdAt = "created_at", expiresAt = "expires_at"
            case userAgent = "user_agent", clientIP = "client_ip"
        }
    }

    /// Opens a session and ends the user's oldest live ones beyond `maxLive`, never the one it opens, in one
    /// transaction: a stolen password or a script cannot pile up sessions, and a person who signs in on a 21st
    /// browser loses the one opened longest ago.
    func create(
        tokenHash: String, userID: UUID, tokenVersion: Int, device: (userAgent: String?, clientIP: String?),
        now: Date, lifetime: TimeInterval, maxLive: Int
    ) async throws {
        let sessionID = UUID()
        try await db.writeTransaction { tx in
            try await tx.sql.raw("""
                INSERT INTO console_sessions
                    (id, token_hash, user_id, token_version, created_at, expires_at, user_agent, client_ip)
                VALUES (\(bind: sessionID), \(bind: tokenHash), \(bind: userID), \(bind: tokenVersion), \(bind: now),
                    \(bind: now.addingTimeInterval(lifetime)), \(bind: device.userAgent), \(bind: device.clientIP))
                """).run()
            try await tx.sql.raw("""
                UPDATE console_sessions SET revoked_at = \(bind: now)
                WHERE user_id = \(bind: userID) AND revoked_at IS NULL AND expires_at > \(bind: now)
                    AND id <> \(bind: sessionID)
                    AND id NOT IN (
                        SELECT id FROM console_sessions
                        WHERE user_id = \(bind: userID) AND revoked_at IS NULL AND expires_at > \(bind: now)
                            AND id <> \(bind: sessionID)
                        ORDER BY created_at DESC, id DESC LIMIT \(bind: maxLive - 1))
                """).run()
        }
    }

    /// The user's live sessions, newest first.
    func devices(userID: UUID, now: Date) async throws -> [Device] {
        try await db.sql.raw("""
            SELECT token_hash, created_at, expires_at, user_agent, client_ip FROM console_sessions
            WHERE user_id = \(bind: userID) AND revoked_at IS NULL AND expires_at > \(bind: now)
            ORDER BY created_at DESC, id DESC
            """).all(decoding: Device.self)
    }

    /// Ends every console session of the user.
    func revokeAll(userID: UUID, now: Date) async throws {
        try await db.sql.raw("""
            UPDATE console_sessions SET revoked_at = \(bind: now) WHERE user_id = \(bind: userID) AND revoked_at IS NULL
            """).run()
    }

    /// The session's user and the token version it was opened with, while neither expired nor revoked.
    func live(tokenHash: String, now: Date) async throws -> LiveSession? {
        if let rows = try await db.prepared(LiveByHash(tokenHash: tokenHash, now: now), decoding: LiveSession.self) {
            return rows.first
        }
        return try await db.sql.raw("""
            SELECT user_id, token_version FROM console_sessions
            WHERE token_hash = \(bind: tokenHash) AND revoked_at IS NULL AND expires_at > \(bind: now)
            """).first(decoding: LiveSession.self)
    }

    /// `live` prepared on PostgreSQL: every console request (every board poll among them) starts with it.
    private struct LiveByHash: PreparedRead {
        static let sql = """
            SELECT user_id, token_version FROM console_sessions
            WHERE token_hash = $1 AND revoked_at IS NULL AND expires_at > $2
            """
        static let bindingDataTypes: [PostgresDataType] = [.text, .timestamptz]
        let tokenHash: String
        let now: Date

        func makeBindings() -> PostgresBindings { PostgresBindings(values: tokenHash, now) }
    }

    func revoke(tokenHash: String, now: Date) async throws {
        try await db.sql.raw("""
            UPDATE console_sessions SET revoked_at = \(bind: now) WHERE token_hash = \(bind: tokenHash) AND revoked_at IS NULL
            """).run()
    }

    /// Expired and revoked rows are of no use after a day; removed at sign-in so the table stays small.
    func prune(before cutoff: Date) async throws {
        try await db.sql.raw("""
            DELETE FROM console_sessions WHERE expires_at < \(bind: cutoff) OR revoked_at < \(bind: cutoff)
            """).run()
    }
}
