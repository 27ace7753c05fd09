import Fluent
import SQLKit

/// The attempt ledger shared by the server processes on one PostgreSQL database (`DatabaseAttemptLedger`): login
/// throttles and request rate limits of both products. Created on SQLite too (one schema on both engines), where the
/// single process counts in memory instead.
public struct M0002_CreateAttemptLedger: AsyncMigration {
    public init() {}
    public var name: String { "M0002_CreateAttemptLedger" }

    public func prepare(on database: any Database) async throws {
        let t = SchemaTypes(database.engine)
        try await database.sql.raw("""
            CREATE TABLE attempt_keys (
                rule \(unsafeRaw: t.text) NOT NULL,
                attempt_key \(unsafeRaw: t.text) NOT NULL,
                blocked_until \(unsafeRaw: t.timestamp),
                last_seen \(unsafeRaw: t.timestamp) NOT NULL,
                PRIMARY KEY (rule, attempt_key)
            )
            """).run()
        try await database.sql.raw("""
            CREATE TABLE attempt_events (
                ticket \(unsafeRaw: t.uuid) NOT NULL,
                rule \(unsafeRaw: t.text) NOT NULL,
                attempt_key \(unsafeRaw: t.text) NOT NULL,
                at \(unsafeRaw: t.timestamp) NOT NULL,
                pending \(unsafeRaw: t.bool) NOT NULL,
                PRIMARY KEY (ticket, rule, attempt_key)
            )
            """).run()
        try await database.sql.raw("CREATE INDEX attempt_events_key_at ON attempt_events (rule, attempt_key, at)").run()
        try await database.sql.raw("CREATE INDEX attempt_events_at ON attempt_events (at)").run()
        try await database.sql.raw("CREATE INDEX attempt_keys_last_seen ON attempt_keys (last_seen)").run()
    }

    public func revert(on database: any Database) async throws {
        try await database.sql.raw("DROP TABLE attempt_events").run()
        try await database.sql.raw("DROP TABLE attempt_keys").run()
    }
}
