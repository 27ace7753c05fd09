import AppCore
import Fluent
import SQLKit

/// A token version per admin user, copied into each session at login (contract §2.7, AutoDetail hardening): a
/// password change increments it in its transaction, so a session minted by a login whose password check ran while
/// the change committed is void too, not only the sessions that existed before.
struct M0210_AddAdminTokenVersion: AsyncMigration {
    var name: String { "M0210_AddAdminTokenVersion" }

    func prepare(on database: any Database) async throws {
        let t = SchemaTypes(database.engine)
        for table in ["ad_admin_users", "ad_admin_sessions"] {
            try await database.sql.raw("""
                ALTER TABLE \(unsafeRaw: table) ADD COLUMN token_version \(unsafeRaw: t.int) NOT NULL DEFAULT 0
                """).run()
        }
    }

    func revert(on database: any Database) async throws {
        for table in ["ad_admin_sessions", "ad_admin_users"] {
            try await database.sql.raw("ALTER TABLE \(unsafeRaw: table) DROP COLUMN token_version").run()
        }
    }
}
