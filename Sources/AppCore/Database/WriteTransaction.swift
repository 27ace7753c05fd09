import Fluent
import SQLKit

extension Database {
    /// Runs `body` in a write transaction following the concurrency rules: on SQLite `BEGIN IMMEDIATE` on one
    /// connection (so two writers never deadlock while upgrading a read lock), on PostgreSQL an ordinary
    /// READ COMMITTED transaction in which callers take row locks or rely on unique indexes.
    public func writeTransaction<T: Sendable>(_ body: @escaping @Sendable (any Database) async throws -> T) async throws -> T {
        switch engine {
        case .postgres:
            return try await transaction { try await body($0) }
        case .sqlite:
            return try await withConnection { connection in
                let sql = connection.sql
                try await SQLiteConnectionSettings.apply(to: sql)
                try await sql.raw("BEGIN IMMEDIATE").run()
                do {
                    let result = try await body(connection)
                    try await sql.raw("COMMIT").run()
                    return result
                } catch {
                    try? await sql.raw("ROLLBACK").run()
                    throw error
                }
            }
        }
    }
}

/// Per-connection SQLite settings. The driver installs a busy handler that retries forever; setting
/// `busy_timeout` replaces it, so a locked database fails after 5 s (answered 503) instead of spinning.
/// The driver offers no hook on connection open, so the settings are applied at start to every pooled connection
/// and again before every write transaction (they are cheap and idempotent).
public enum SQLiteConnectionSettings {
    public static func apply(to sql: any SQLDatabase) async throws {
        try await sql.raw("PRAGMA busy_timeout = 5000").run()
        try await sql.raw("PRAGMA synchronous = NORMAL").run()
    }
}
