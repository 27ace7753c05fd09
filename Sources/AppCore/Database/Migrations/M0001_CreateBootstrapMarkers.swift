import Fluent
import SQLKit

/// Shared by both products: one row per product records its first start (which seeds the demo data).
public struct M0001_CreateBootstrapMarkers: AsyncMigration {
    public init() {}
    public var name: String { "M0001_CreateBootstrapMarkers" }

    public func prepare(on database: any Database) async throws {
        let t = SchemaTypes(database.engine)
        try await database.sql.raw("""
            CREATE TABLE bootstrap_markers (
                product \(unsafeRaw: t.text) PRIMARY KEY,
                created_at \(unsafeRaw: t.timestamp) NOT NULL
            )
            """).run()
        try await database.sql.raw("""
            CREATE TABLE task_leases (
                name \(unsafeRaw: t.text) PRIMARY KEY,
                owner \(unsafeRaw: t.text) NOT NULL,
                expires_at \(unsafeRaw: t.timestamp) NOT NULL
            )
            """).run()
    }

    public func revert(on database: any Database) async throws {
        try await database.sql.raw("DROP TABLE task_leases").run()
        try await database.sql.raw("DROP TABLE bootstrap_markers").run()
    }
}
