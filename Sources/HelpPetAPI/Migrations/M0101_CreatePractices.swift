import AppCore
import Fluent
import SQLKit

struct M0101_CreatePractices: AsyncMigration {
    var name: String { "M0101_CreatePractices" }

    func prepare(on database: any Database) async throws {
        let t = SchemaTypes(database.engine)
        try await database.sql.raw("""
            CREATE TABLE practices (
                id \(unsafeRaw: t.uuid) PRIMARY KEY,
                name \(unsafeRaw: t.text) NOT NULL,
                timezone \(unsafeRaw: t.text) NOT NULL,
                phone \(unsafeRaw: t.text),
                email \(unsafeRaw: t.text),
                address \(unsafeRaw: t.text),
                is_active \(unsafeRaw: t.bool) NOT NULL,
                created_at \(unsafeRaw: t.timestamp) NOT NULL,
                updated_at \(unsafeRaw: t.timestamp) NOT NULL
            )
            """).run()
        try await database.sql.raw("CREATE INDEX practices_name ON practices (name, id)").run()
    }

    func revert(on database: any Database) async throws {
        try await database.sql.raw("DROP TABLE practices").run()
    }
}
