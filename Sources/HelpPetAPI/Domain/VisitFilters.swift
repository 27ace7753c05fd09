import AppCore
import Fluent

/// SQL forms of visit rules that lists filter on.
enum VisitFilters {
    /// Excludes pending visits: recording visits in state `new` that never held a completed recording (§4.10).
    /// The same rule as `Visit.isPending`, evaluated by the database so counts and pages agree.
    static func notPending(on db: any Database) -> DatabaseQuery.Filter {
        .sql(unsafeRaw: notPendingSQL(on: db))
    }

    /// The condition of `notPending` as SQL text (for raw statements).
    static func notPendingSQL(on db: any Database) -> String {
        let hasPrevious = db.engine == .postgres
            ? "(metadata -> 'previous_recordings') IS NOT NULL"
            : "json_type(metadata, '$.previous_recordings') IS NOT NULL"
        return "NOT (source = 'recording' AND state = 'new' AND NOT (\(hasPrevious)))"
    }
}
