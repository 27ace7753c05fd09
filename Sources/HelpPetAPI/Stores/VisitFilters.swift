import AppCore
import Fluent

/// SQL forms of visit rules that lists filter on.
enum VisitFilters {
    /// Excludes pending visits: recording visits in state `new` that never held a completed recording (§4.10).
    /// The same rule as `Visit.isPending`, evaluated by the database so counts and pages agree.
    static func notPending(on db: any Database) -> DatabaseQuery.Filter {
        .sql(unsafeRaw: notPendingSQL(on: db))
    }

    /// The condition of `notPending` as SQL text (for raw statements); `table` qualifies the columns in a join.
    static func notPendingSQL(on db: any Database, table: String? = nil) -> String {
        notPendingSQL(engine: db.engine, table: table)
    }

    /// `notPendingSQL` for an engine known in advance (a prepared statement's text).
    static func notPendingSQL(engine: DatabaseEngine, table: String? = nil) -> String {
        let t = table.map { $0 + "." } ?? ""
        let hasPrevious = engine == .postgres
            ? "(\(t)metadata -> 'previous_recordings') IS NOT NULL"
            : "json_type(\(t)metadata, '$.previous_recordings') IS NOT NULL"
        return "NOT (\(t)source = 'recording' AND \(t)state = 'new' AND NOT (\(hasPrevious)))"
    }
}
