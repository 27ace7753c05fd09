import AppCore
import Fluent
import SQLKit

/// The clinic console's browser sessions: only the SHA-256 of the cookie token is stored, so a database
/// read gives no usable session; logout sets `revoked_at`, and a user's token version change voids them all.
struct M0121_CreateConsoleSessions: AsyncMigration {
    var name: String { "M0121_CreateConsoleSessions" }

    func prepare(on database: any Database) async throws {
        let t = SchemaTypes(database.engine)
        try await database.sql.raw("""
            CREATE TABLE console_sessions (
                id \(unsafeRaw: t.uuid) PRIMARY KEY,
                token_hash \(unsafeRaw: t.text) NOT NULL UNIQUE,
                user_id \(unsafeRaw: t.uuid) NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                token_version \(unsafeRaw: t.int) NOT NULL,
                created_at \(unsafeRaw: t.timestamp) NOT NULL,
                expires_at \(unsafeRaw: t.timestamp) NOT NULL,
                revoked_at \(unsafeRaw: t.timestamp)
            )
            """).run()
        try await database.sql.raw("CREATE INDEX console_sessions_user ON console_sessions (user_id)").run()
    }

    func revert(on database: any Database) async throws {
        try await database.sql.raw("DROP TABLE console_sessions").run()
    }
}
