import AppCore
import Fluent
import SQLKit

/// What an admin session was opened from: the studio console (a browser, capped per user) or the API (the CLI,
/// scripts), with the browser and address, so the admin can recognise their signed-in devices. Sessions opened
/// before this migration count as API sessions with no device details.
struct M0212_AddAdminSessionDevices: AsyncMigration {
    var name: String { "M0212_AddAdminSessionDevices" }

    func prepare(on database: any Database) async throws {
        let t = SchemaTypes(database.engine)
        try await database.sql.raw("""
            ALTER TABLE ad_admin_sessions ADD COLUMN via_console \(unsafeRaw: t.bool) NOT NULL DEFAULT \(unsafeRaw: t.false)
            """).run()
        try await database.sql.raw("ALTER TABLE ad_admin_sessions ADD COLUMN user_agent \(unsafeRaw: t.text)").run()
        try await database.sql.raw("ALTER TABLE ad_admin_sessions ADD COLUMN client_ip \(unsafeRaw: t.text)").run()
    }

    func revert(on database: any Database) async throws {
        for column in ["client_ip", "user_agent", "via_console"] {
            try await database.sql.raw("ALTER TABLE ad_admin_sessions DROP COLUMN \(unsafeRaw: column)").run()
        }
    }
}
