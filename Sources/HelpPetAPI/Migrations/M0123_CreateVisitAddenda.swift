import AppCore
import Fluent
import SQLKit

/// Addenda of approved visit notes: append-only, so there is no update or delete path; a visit's deletion
/// takes its addenda with it. `position` orders them (1, 2, …): timestamps are whole seconds, so two addenda of the
/// same second would otherwise have no order.
struct M0123_CreateVisitAddenda: AsyncMigration {
    var name: String { "M0123_CreateVisitAddenda" }

    func prepare(on database: any Database) async throws {
        let t = SchemaTypes(database.engine)
        try await database.sql.raw("""
            CREATE TABLE visit_addenda (
                id \(unsafeRaw: t.uuid) PRIMARY KEY,
                visit_id \(unsafeRaw: t.uuid) NOT NULL REFERENCES visits (id) ON DELETE CASCADE,
                author_id \(unsafeRaw: t.uuid) NOT NULL REFERENCES users (id),
                text \(unsafeRaw: t.text) NOT NULL,
                position \(unsafeRaw: t.int) NOT NULL,
                created_at \(unsafeRaw: t.timestamp) NOT NULL,
                UNIQUE (visit_id, position)
            )
            """).run()
    }

    func revert(on database: any Database) async throws {
        try await database.sql.raw("DROP TABLE visit_addenda").run()
    }
}
