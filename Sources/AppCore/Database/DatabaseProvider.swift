import Fluent
import Vapor

/// The application's database, for code that runs outside a request and is owned by the application itself (the
/// embedded object store's upload admissions). It keeps the database registry, not the application, so holding it
/// makes no reference cycle.
public struct DatabaseProvider: Sendable {
    private let databases: Databases
    private let eventLoops: any EventLoopGroup
    private let logger: Logger

    public init(_ app: Application) {
        databases = app.databases
        eventLoops = app.eventLoopGroup
        logger = app.logger
    }

    /// A database handle on any of the application's event loops, like `Application.db`.
    public var db: any Database {
        guard let db = databases.database(logger: logger, on: eventLoops.any()) else {
            fatalError("The application has no default database configured")
        }
        return db
    }
}
