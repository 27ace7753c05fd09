import Fluent
import FluentPostgresDriver
import FluentSQLiteDriver
import SQLKit
import Vapor

/// Registers the configured database: a WAL-mode SQLite file by default, PostgreSQL with `DATABASE_URL`.
public enum DatabaseSetup {
    /// No pooled connection within this time → 503 (shared surface rule).
    public static let poolTimeout: TimeAmount = .seconds(2)

    public static func configure(_ app: Application, config: AppConfig) throws {
        switch config.database {
        case .sqlite(let path):
            app.databases.use(
                .sqlite(.file(path), connectionPoolTimeout: poolTimeout, sqlLogLevel: .debug), as: .sqlite)
        case .postgres(let url):
            var configuration = try SQLPostgresConfiguration(url: url)
            configuration.coreConfiguration.options.connectTimeout = .seconds(2)
            if config.databasePreparedStatements {
                // Only named prepared statements (the prepared reads) follow this setting. By default PostgreSQL
                // keeps planning each execution anew whenever the generic plan's estimate is above the custom
                // plans' — which the bound caller-reach conditions make so — and planning then costs five times the
                // execution. The prepared reads' SQL is written to be right for every caller (docs/read-path.md).
                configuration.coreConfiguration.options.additionalStartupParameters.append(
                    ("plan_cache_mode", "force_generic_plan"))
            }
            // The pool is per event loop (a request uses its own loop's connections): DATABASE_POOL_SIZE is spread
            // over the loops the server really runs, at least one each (docs/read-path.md).
            let loops = app.eventLoopGroup.makeIterator().reduce(0) { count, _ in count + 1 }
            let postgres = DatabaseConfigurationFactory.postgres(
                configuration: configuration,
                maxConnectionsPerEventLoop: max(1, config.databasePoolSize / max(1, loops)),
                connectionPoolTimeout: poolTimeout,
                encodingContext: .default, decodingContext: .default,
                sqlLogLevel: .debug)
            app.databases.use(
                PreparedReadsSetting(base: postgres.make(), enabled: config.databasePreparedStatements), as: .psql)
        }
    }

    /// Applies the SQLite settings that live in the file (WAL) and on each pooled connection (one per event loop).
    public static func prepareConnections(_ app: Application) async throws {
        guard app.db.engine == .sqlite else { return }
        try await app.db.sql.raw("PRAGMA journal_mode = WAL").run()
        for eventLoop in app.eventLoopGroup.makeIterator() {
            let db = app.databases.database(logger: app.logger, on: eventLoop)!
            try await SQLiteConnectionSettings.apply(to: db.sql)
        }
    }
}
