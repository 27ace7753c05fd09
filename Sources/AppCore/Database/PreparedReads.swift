import FluentKit
import FluentPostgresDriver
import Logging
import PostgresKit
import SQLKit

/// A hot read as a PostgreSQL prepared statement. Sent unprepared, PostgreSQL parses and plans a statement on every
/// execution (a third of its CPU on the read benchmark); postgres-nio prepares a `PostgresPreparedStatement` once per
/// connection, under its name, and only binds and executes it afterwards. The SQL of a prepared read never depends
/// on the caller: what differs between callers (their reach, a filter switched on or off) is a bound value.
/// Rows keep the stores' `Decodable` row types, read by column name as on the SQLKit path.
public protocol PreparedRead: PostgresPreparedStatement where Row == PostgresRow {}

extension PreparedRead {
    /// The statement's name on each connection: the type's own name (PostgreSQL keeps 63 bytes of a name, and a
    /// private type's reflected name carries an address), so each prepared read's type name is unique.
    public static var name: String { String(describing: Self.self) }

    public func decodeRow(_ row: PostgresRow) throws -> PostgresRow { row }
}

/// A database configuration with the prepared-read setting beside it (`DATABASE_PREPARED_STATEMENTS`), so the
/// setting belongs to the registered database, and two applications in one process (the tests) can differ. Every
/// database handed out for it carries it in `context.configuration`; the driver is the wrapped configuration's own.
struct PreparedReadsSetting: DatabaseConfiguration {
    var base: any DatabaseConfiguration
    let enabled: Bool

    var middleware: [any AnyModelMiddleware] {
        get { base.middleware }
        set { base.middleware = newValue }
    }

    func makeDriver(for databases: Databases) -> any DatabaseDriver { base.makeDriver(for: databases) }
}

extension Database {
    /// Whether this database runs the prepared forms: PostgreSQL, unless its registration turned them off.
    public var runsPreparedReads: Bool { preparedReadsDatabase != nil }

    /// This database as PostgreSQL when it runs the prepared forms; nil otherwise. One cast, shared by the check
    /// and the execution.
    private var preparedReadsDatabase: (any PostgresDatabase)? {
        guard (context.configuration as? PreparedReadsSetting)?.enabled ?? true else { return nil }
        return self as? any PostgresDatabase
    }

    /// The rows of `read` decoded as `T`, on PostgreSQL; nil on another engine (or with prepared statements turned
    /// off), where the store runs its own SQL.
    public func prepared<Read: PreparedRead, T: Decodable & Sendable>(
        _ read: Read, decoding: T.Type, with decoder: SQLRowDecoder = SQLRowDecoder()
    ) async throws -> [T]? {
        try await preparedRows(read)?.map { try $0.decode(model: T.self, with: decoder) }
    }

    /// The rows of `read` as SQLKit rows, for a read whose rows decode into more than one type; nil where
    /// `prepared(_:decoding:)` is nil.
    /// Inside a transaction this runs on the transaction's connection.
    public func preparedRows<Read: PreparedRead>(_ read: Read) async throws -> [any SQLRow]? {
        guard let postgres = preparedReadsDatabase else { return nil }
        let logger = self.logger
        // The drivers' own line for every statement, so a debug log (and the statement-count tests) sees these too.
        logger.debug("Executing query", metadata: ["sql": .string(Read.sql), "prepared": .string(Read.name)])
        return try await postgres.withConnection { connection in
            connection.eventLoop.makeFutureWithTask {
                var rows: [any SQLRow] = []
                for try await row in try await connection.execute(read, logger: logger) {
                    rows.append(row.sql())
                }
                return rows
            }
        }.get()
    }
}

extension PostgresBindings {
    /// The bindings of plain values, in the order of the statement's parameters (`$1`, `$2`, …).
    public init(values: any PostgresDynamicTypeEncodable...) {
        self.init(capacity: values.count)
        for value in values { append(value) }
    }

    /// Appends `value`, or SQL NULL when it is nil (the statement's context gives the parameter its type).
    public mutating func append<Value: PostgresDynamicTypeEncodable>(orNull value: Value?) {
        if let value { append(value) } else { appendNull() }
    }
}
