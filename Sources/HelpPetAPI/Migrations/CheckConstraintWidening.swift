import AppCore
import Fluent
import Foundation
import SQLKit

/// Replaces a column's CHECK constraint with a wider one (more allowed values) on an existing table.
///
/// PostgreSQL swaps the named constraint in one statement. SQLite cannot alter a constraint, so the table is rebuilt
/// with SQLite's documented procedure (https://sqlite.org/lang_altertable.html, "other kinds of table schema
/// changes"): foreign keys off on one pinned connection, a copy of the table created from its stored DDL with the
/// fragment replaced, rows copied, the old table dropped, the copy renamed, the indexes recreated, and
/// `foreign_key_check` run before commit. The DDL is read back from `sqlite_master` rather than restated, so columns
/// added by any other migration survive the rebuild.
struct CheckConstraintWidening: Sendable {
    let table: String
    /// PostgreSQL's name of the constraint (an inline column CHECK is named `{table}_{column}_check`).
    let postgresConstraint: String
    /// The new CHECK expression, without the `CHECK` keyword.
    let postgresCheck: String
    /// The exact text of the old constraint in the table's SQLite DDL, and its replacement.
    let sqliteFragment: String
    let sqliteReplacement: String

    struct RebuildFailed: Error, CustomStringConvertible { let description: String }

    func apply(on database: any Database) async throws {
        switch database.engine {
        case .postgres:
            try await database.sql.raw("""
                ALTER TABLE \(unsafeRaw: table) DROP CONSTRAINT \(unsafeRaw: postgresConstraint),
                ADD CONSTRAINT \(unsafeRaw: postgresConstraint) CHECK (\(unsafeRaw: postgresCheck))
                """).run()
        case .sqlite:
            try await rebuildSQLiteTable(on: database)
        }
    }

    private func rebuildSQLiteTable(on database: any Database) async throws {
        try await database.withConnection { connection in
            let sql = connection.sql
            // Must be set outside a transaction; it is per connection, hence the pinned one.
            try await sql.raw("PRAGMA foreign_keys = OFF").run()
            do {
                try await sql.raw("BEGIN IMMEDIATE").run()
                do {
                    try await rebuild(sql)
                    try await sql.raw("COMMIT").run()
                } catch {
                    try? await sql.raw("ROLLBACK").run()
                    throw error
                }
            } catch {
                try? await sql.raw("PRAGMA foreign_keys = ON").run()
                throw error
            }
            try await sql.raw("PRAGMA foreign_keys = ON").run()
        }
    }

    private func rebuild(_ sql: any SQLDatabase) async throws {
        guard let row = try await sql.raw(
            "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = \(bind: table)").first()
        else { throw RebuildFailed(description: "table \(table) not found") }
        let ddl = try row.decode(column: "sql", as: String.self)
        guard ddl.components(separatedBy: sqliteFragment).count == 2 else {
            throw RebuildFailed(description: "the CHECK fragment to widen occurs not exactly once in \(table)'s DDL")
        }
        // A table this helper rebuilt before carries SQLite's quoted name (RENAME rewrites the DDL that way).
        guard let header = ["CREATE TABLE \(table) (", "CREATE TABLE \"\(table)\" ("].first(where: ddl.hasPrefix) else {
            throw RebuildFailed(description: "unexpected DDL of \(table)")
        }
        let copy = "\(table)__rebuild"
        let newDDL = "CREATE TABLE \(copy) (" + ddl.dropFirst(header.count)
            .replacingOccurrences(of: sqliteFragment, with: sqliteReplacement)
        let indexes = try await sql.raw("""
            SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = \(bind: table) AND sql IS NOT NULL
            """).all().map { try $0.decode(column: "sql", as: String.self) }

        try await sql.raw("\(unsafeRaw: newDDL)").run()
        try await sql.raw("INSERT INTO \(unsafeRaw: copy) SELECT * FROM \(unsafeRaw: table)").run()
        try await sql.raw("DROP TABLE \(unsafeRaw: table)").run()
        try await sql.raw("ALTER TABLE \(unsafeRaw: copy) RENAME TO \(unsafeRaw: table)").run()
        for index in indexes { try await sql.raw("\(unsafeRaw: index)").run() }
        let violations = try await sql.raw("PRAGMA foreign_key_check").all()
        if !violations.isEmpty { throw RebuildFailed(description: "foreign key violations after rebuilding \(table)") }
    }
}
