import AppCore
import Fluent
import Foundation
import SQLKit

/// Console users and their sessions (`ad_admin_users`, `ad_admin_sessions`, contract §2.6, §4.7.1).
struct AdminSessionStore: Sendable {
    let db: any Database

    private static let rowDecoding = SQLRowDecoder(keyDecodingStrategy: .convertFromSnakeCase)

    /// The live session of a token hash: not revoked, not expired, and minted under the user's current token version.
    func liveSession(tokenHash: String, now: Date) async throws -> AdminCaller? {
        try await db.sql.raw("""
            SELECT s.id, s.admin_user_id FROM ad_admin_sessions s
            JOIN ad_admin_users u ON u.id = s.admin_user_id AND u.token_version = s.token_version
            WHERE s.token_hash = \(bind: tokenHash) AND s.revoked_at IS NULL AND s.expires_at > \(bind: now)
            """).first(decoding: SessionRow.self, with: Self.rowDecoding)
            .map { AdminCaller(sessionID: $0.id, userID: $0.adminUserId) }
    }

    func user(named username: String) async throws -> AdminUserRecord? {
        try await AdminUserRecord.query(on: db).filter(\.$username == username).first()
    }

    func user(_ id: UUID) async throws -> AdminUserRecord? {
        try await AdminUserRecord.find(id, on: db)
    }

    /// A new session for `user` under the token version read before the password check.
    /// Where a session was opened from (M0212).
    struct DeviceDetails: Sendable {
        let viaConsole: Bool
        let userAgent: String?
        let clientIP: String?
    }

    /// One live session as the admin sees it on the account page.
    struct Device: Decodable, Sendable {
        let tokenHash: String
        let createdAt: Date
        let expiresAt: Date
        let viaConsole: Bool
        let userAgent: String?
        let clientIp: String?
    }

    /// Opens a session; a console session also ends the user's oldest live console sessions beyond
    /// `maxLiveConsoleSessions`, in the same transaction, never the one it opens. `openedAt` is the clock's full
    /// precision (the wire's `issued` is whole seconds), so "oldest" is exact for sign-ins within one second.
    func startSession(
        user: AdminUserRecord, tokenHash: String, openedAt: Date, expiresAt: Date, device: DeviceDetails,
        maxLiveConsoleSessions: Int
    ) async throws {
        let sessionID = UUID()
        try await db.writeTransaction { db in
            try await db.sql.raw("""
                INSERT INTO ad_admin_sessions
                    (id, admin_user_id, token_hash, created_at, expires_at, token_version, via_console, user_agent,
                     client_ip)
                VALUES (\(bind: sessionID), \(bind: user.id!), \(bind: tokenHash), \(bind: openedAt), \(bind: expiresAt),
                    \(bind: user.tokenVersion), \(bind: device.viaConsole), \(bind: device.userAgent),
                    \(bind: device.clientIP))
                """).run()
            try await db.sql.raw("""
                UPDATE ad_admin_users SET last_login_at = \(bind: WireTime.truncated(openedAt)) WHERE id = \(bind: user.id!)
                """).run()
            guard device.viaConsole else { return }
            try await db.sql.raw("""
                UPDATE ad_admin_sessions SET revoked_at = \(bind: openedAt)
                WHERE admin_user_id = \(bind: user.id!) AND via_console = \(bind: true) AND revoked_at IS NULL
                    AND expires_at > \(bind: openedAt) AND id <> \(bind: sessionID)
                    AND id NOT IN (
                        SELECT id FROM ad_admin_sessions
                        WHERE admin_user_id = \(bind: user.id!) AND via_console = \(bind: true) AND revoked_at IS NULL
                            AND expires_at > \(bind: openedAt) AND id <> \(bind: sessionID)
                        ORDER BY created_at DESC, id DESC LIMIT \(bind: maxLiveConsoleSessions - 1))
                """).run()
        }
    }

    /// The user's live sessions (console and API), newest first.
    func devices(userID: UUID, now: Date) async throws -> [Device] {
        try await db.sql.raw("""
            SELECT s.token_hash, s.created_at, s.expires_at, s.via_console, s.user_agent, s.client_ip
            FROM ad_admin_sessions s
            JOIN ad_admin_users u ON u.id = s.admin_user_id AND u.token_version = s.token_version
            WHERE s.admin_user_id = \(bind: userID) AND s.revoked_at IS NULL AND s.expires_at > \(bind: now)
            ORDER BY s.created_at DESC, s.id DESC
            """).all(decoding: Device.self, with: Self.rowDecoding)
    }

    /// "Sign out everywhere": the token version moves on and every session of the user is revoked.
    func endAllSessions(userID: UUID, now: Date) async throws {
        try await db.writeTransaction { db in
            try await db.sql.raw("UPDATE ad_admin_users SET token_version = token_version + 1 WHERE id = \(bind: userID)")
                .run()
            try await db.sql.raw("""
                UPDATE ad_admin_sessions SET revoked_at = \(bind: now)
                WHERE admin_user_id = \(bind: userID) AND revoked_at IS NULL
                """).run()
        }
    }

    func endSession(_ sessionID: UUID, now: Date) async throws {
        try await db.sql.raw("""
            UPDATE ad_admin_sessions SET revoked_at = \(bind: now) WHERE id = \(bind: sessionID) AND revoked_at IS NULL
            """).run()
    }

    /// Stores the new password hash, moves the token version on (voiding sessions being minted concurrently), keeps
    /// the calling session valid under the new version and revokes every other session of the user.
    func changePassword(_ caller: AdminCaller, newHash: String, now: Date) async throws {
        try await db.writeTransaction { db in
            try await db.sql.raw("""
                UPDATE ad_admin_users SET password_hash = \(bind: newHash), password_changed_at = \(bind: now),
                    token_version = token_version + 1
                WHERE id = \(bind: caller.userID)
                """).run()
            try await db.sql.raw("""
                UPDATE ad_admin_sessions
                SET token_version = (SELECT token_version FROM ad_admin_users WHERE id = \(bind: caller.userID))
                WHERE id = \(bind: caller.sessionID)
                """).run()
            try await db.sql.raw("""
                UPDATE ad_admin_sessions SET revoked_at = \(bind: now)
                WHERE admin_user_id = \(bind: caller.userID) AND id <> \(bind: caller.sessionID) AND revoked_at IS NULL
                """).run()
        }
    }

    private struct SessionRow: Decodable {
        let id: UUID
        let adminUserId: UUID
    }
}
