import AppCore
import Fluent
import SQLKit

/// The console admin and its sessions (contract §3.8, §3.9): unique lower-case usernames, unique token hashes.
struct M0208_CreateAdminUsers: AsyncMigration {
    var name: String { "M0208_AutoDetailCreateAdminUsers" }

    func prepare(on database: any Database) async throws {
        let t = SchemaTypes(database.engine)
        try await database.sql.raw("""
            CREATE TABLE ad_admin_users (
                id \(unsafeRaw: t.uuid) PRIMARY KEY,
                username \(unsafeRaw: t.text) NOT NULL UNIQUE CHECK (username = lower(username)),
                password_hash \(unsafeRaw: t.text) NOT NULL,
                created_at \(unsafeRaw: t.timestamp) NOT NULL,
                last_login_at \(unsafeRaw: t.timestamp),
                password_changed_at \(unsafeRaw: t.timestamp) NOT NULL
            )
            """).run()
        try await database.sql.raw("""
            CREATE TABLE ad_admin_sessions (
                id \(unsafeRaw: t.uuid) PRIMARY KEY,
                admin_user_id \(unsafeRaw: t.uuid) NOT NULL REFERENCES ad_admin_users (id) ON DELETE CASCADE,
                token_hash \(unsafeRaw: t.text) NOT NULL UNIQUE,
                created_at \(unsafeRaw: t.timestamp) NOT NULL,
                expires_at \(unsafeRaw: t.timestamp) NOT NULL,
                revoked_at \(unsafeRaw: t.timestamp)
            )
            """).run()
    }

    func revert(on database: any Database) async throws {
        try await database.sql.raw("DROP TABLE ad_admin_sessions").run()
        try await database.sql.raw("DROP TABLE ad_admin_users").run()
    }
}
