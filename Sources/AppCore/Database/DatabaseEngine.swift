import Fluent
import SQLKit

/// The two supported engines. SQL that differs between them (DDL types, upserts, locking) branches on this.
public enum DatabaseEngine: Sendable {
    case sqlite, postgres

    public init(_ database: any Database) {
        self = (database as? any SQLDatabase)?.dialect.name == "sqlite" ? .sqlite : .postgres
    }
}

extension Database {
    public var engine: DatabaseEngine { DatabaseEngine(self) }

    /// The SQLKit view of this database (both drivers provide one).
    public var sql: any SQLDatabase { self as! any SQLDatabase }
}
