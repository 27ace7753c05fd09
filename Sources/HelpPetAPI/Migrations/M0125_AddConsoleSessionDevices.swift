import AppCore
import Fluent
import SQLKit

/// What a console session was opened from (browser and address), so a user can recognise their signed-in devices on
/// the account page. Both stay empty for sessions opened before this migration.
struct M0125_AddConsoleSessionDevices: AsyncMigration {
    var name: String { "M0125_AddConsoleSessionDevices" }

    func prepare(on database: any Database) async throws {
        let t = SchemaTypes(database.engine)
        try await database.sql.raw("ALTER TABLE console_sessions ADD COLUMN user_agent \(unsafeRaw: t.text)").run()
        try await database.sql.raw("ALTER TABLE console_sessions ADD COLUMN client_ip \(unsafeRaw: t.text)").run()
    }

    func revert(on database: any Database) async throws {
        try await database.sql.raw("ALTER TABLE console_sessions DROP COLUMN client_ip").run()
        try await database.sql.raw("ALTER TABLE console_sessions DROP COLUMN user_agent").run()
    }
}
