import AppCore
import Fluent
import SQLKit

/// Services (contract §3.1, §3.9 rules 2–3): names unique among active services through a stored normalised name
/// and a partial unique index.
struct M0201_CreateServices: AsyncMigration {
    var name: String { "M0201_AutoDetailCreateServices" }

    func prepare(on database: any Database) async throws {
        let t = SchemaTypes(database.engine)
        try await database.sql.raw("""
            CREATE TABLE ad_services (
                id \(unsafeRaw: t.uuid) PRIMARY KEY,
                name \(unsafeRaw: t.text) NOT NULL,
                name_normalized \(unsafeRaw: t.text) NOT NULL,
                description \(unsafeRaw: t.text) NOT NULL,
                price_rub \(unsafeRaw: t.int) NOT NULL CHECK (price_rub BETWEEN 0 AND 10000000),
                duration_minutes \(unsafeRaw: t.int) NOT NULL
                    CHECK (duration_minutes BETWEEN 15 AND 720 AND duration_minutes % 5 = 0),
                image_url \(unsafeRaw: t.text),
                active \(unsafeRaw: t.bool) NOT NULL,
                created_at \(unsafeRaw: t.timestamp) NOT NULL,
                updated_at \(unsafeRaw: t.timestamp) NOT NULL
            )
            """).run()
        try await database.sql.raw(
            "CREATE UNIQUE INDEX ad_services_active_name ON ad_services (name_normalized) WHERE active").run()
    }

    func revert(on database: any Database) async throws {
        try await database.sql.raw("DROP TABLE ad_services").run()
    }
}
