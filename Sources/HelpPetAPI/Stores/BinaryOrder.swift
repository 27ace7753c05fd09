import AppCore
import Fluent

/// Text sort keys that order the same on both engines: by the bytes of the value. PostgreSQL's default collation
/// follows locale rules (case and punctuation folded differently per installation), SQLite compares bytes.
enum BinaryOrder {
    /// `expression` is trusted SQL written by the caller (a column or function of columns), never user input.
    static func field(_ expression: String, on db: any Database) -> DatabaseQuery.Field {
        .sql(unsafeRaw: db.engine == .postgres ? "\(expression) COLLATE \"C\"" : expression)
    }
}
