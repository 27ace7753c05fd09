import AppCore
import FluentKit
import Foundation
import PostgresNIO
import SQLKit
import SQLiteNIO
import Testing

/// What kind of constraint a database error reports, on either engine.
enum ConstraintKind: String, Sendable, CustomStringConvertible {
    case unique, check, foreignKey, notNull, trigger, other

    var description: String { rawValue }

    static func of(_ error: any Error) -> ConstraintKind {
        if let sqlite = error as? SQLiteError {
            switch sqlite.reason {
            case .constraintUniqueFailed, .constraintPrimaryKeyFailed: return .unique
            case .constraintCheckFailed: return .check
            case .constraintForeignKeyFailed: return .foreignKey
            case .constraintNotNullFailed: return .notNull
            // ON DELETE RESTRICT is reported through SQLite's trigger code, with the foreign-key message.
            case .constraintTriggerFailed where sqlite.message.contains("FOREIGN KEY"): return .foreignKey
            case .constraintTriggerFailed: return .trigger
            default: return .other
            }
        }
        if let pg = error as? PSQLError, pg.code == .server {
            switch pg.serverInfo?[.sqlState] {
            case "23505": return .unique
            case "23514": return .check
            case "23503": return .foreignKey
            case "23502": return .notNull
            case "P0001": return .trigger
            default: return .other
            }
        }
        return .other
    }
}

/// Runs raw SQL that must succeed (the control) or must be rejected by a given kind of constraint.
struct RawSQL {
    let db: any SQLDatabase
    let engine: DatabaseEngine

    init(_ database: any Database) {
        db = database.sql
        engine = database.engine
    }

    func run(_ query: SQLQueryString, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        do {
            try await db.raw(query).run()
        } catch {
            Issue.record("control statement failed: \(String(reflecting: error))", sourceLocation: sourceLocation)
            throw error
        }
    }

    /// Expects the statement to be rejected with a constraint violation of `kind`.
    func expectRejected(
        _ kind: ConstraintKind, _ query: SQLQueryString, sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        do {
            try await db.raw(query).run()
            Issue.record("the database accepted a statement that violates a \(kind) constraint", sourceLocation: sourceLocation)
        } catch {
            let actual = ConstraintKind.of(error)
            #expect(actual == kind, "rejected, but by \(actual): \(String(reflecting: error))", sourceLocation: sourceLocation)
        }
    }
}
