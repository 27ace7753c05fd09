import AppCore
import Fluent
import SQLKit

/// Admin → install messages (contract §3.7, §3.9): deleted with their install.
struct M0205_CreateMessages: AsyncMigration {
    var name: String { "M0205_AutoDetailCreateMessages" }

    func prepare(on database: any Database) async throws {
        let t = SchemaTypes(database.engine)
        try await database.sql.raw("""
            CREATE TABLE ad_messages (
                id \(unsafeRaw: t.uuid) PRIMARY KEY,
                install_id \(unsafeRaw: t.uuid) NOT NULL REFERENCES ad_install_profiles (id) ON DELETE CASCADE,
                text \(unsafeRaw: t.text) NOT NULL,
                created_at \(unsafeRaw: t.timestamp) NOT NULL,
                read_at \(unsafeRaw: t.timestamp)
            )
            """).run()
        try await database.sql.raw("CREATE INDEX ad_messages_install_created ON ad_messages (install_id, created_at)").run()
    }

    func revert(on database: any Database) async throws {
        try await database.sql.raw("DROP TABLE ad_messages").run()
    }
}
