import AppCore
import FluentKit
import FluentPostgresDriver
import Foundation
import NIOPosix
import SQLKit
import Vapor

/// One isolated database for one test.
///
/// - Default: a fresh SQLite file (`DATA_DIR/app.sqlite`) in a new temporary folder.
/// - With `DATABASE_URL=postgres://…` in the test process's environment: that URL is used as an admin connection
///   to `CREATE DATABASE t_<random>`; the test uses the new database and it is dropped (`WITH (FORCE)`) at the end.
///
/// Either way the test also gets its own temporary `DATA_DIR` (generated secrets, local objects), removed at the end.
public struct TestDatabase: Sendable {
    public enum Engine: String, Sendable { case sqlite, postgres }

    public let engine: Engine
    /// The test's `DATA_DIR`.
    public let directory: URL
    /// The fresh PostgreSQL database's URL (nil on SQLite).
    public let databaseURL: String?
    public let postgresName: String?

    /// The variables that point a server (in-process or a `server` process) at this database.
    public var environment: [String: String] {
        var env = ["DATA_DIR": directory.path]
        if let databaseURL { env["DATABASE_URL"] = databaseURL }
        return env
    }

    /// The admin URL given to the test run, if any (`DATABASE_URL`).
    public static var adminURL: String? {
        guard let url = ProcessInfo.processInfo.environment["DATABASE_URL"], !url.isEmpty else { return nil }
        return url
    }

    /// The engine this test run uses.
    public static var runEngine: Engine { adminURL == nil ? .sqlite : .postgres }

    public static func create() async throws -> TestDatabase {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("server-tests", isDirectory: true)
            .appendingPathComponent(UUID().uuidString.lowercased(), isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        guard let admin = adminURL else {
            return TestDatabase(engine: .sqlite, directory: directory, databaseURL: nil, postgresName: nil)
        }
        let name = "t_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "").prefix(20)
        guard var components = URLComponents(string: admin) else {
            throw TestSetupError("DATABASE_URL is not a URL: \(admin)")
        }
        components.path = "/" + name
        guard let url = components.string else { throw TestSetupError("cannot build a database URL from \(admin)") }
        try await PostgresAdmin.run(adminURL: admin, "CREATE DATABASE \(name)")
        return TestDatabase(engine: .postgres, directory: directory, databaseURL: url, postgresName: String(name))
    }

    /// Drops the PostgreSQL database and removes the temporary folder. Never throws: cleanup must not hide the
    /// test's own outcome.
    public func drop() async {
        if let postgresName, let admin = Self.adminURL {
            do {
                try await PostgresAdmin.run(adminURL: admin, "DROP DATABASE IF EXISTS \(postgresName) WITH (FORCE)")
            } catch {
                print("warning: could not drop test database \(postgresName): \(String(reflecting: error))")
            }
        }
        try? FileManager.default.removeItem(at: directory)
    }
}

/// Runs one statement on the admin connection (statements such as CREATE DATABASE cannot run in a transaction,
/// and SQLKit's raw queries don't open one).
public enum PostgresAdmin {
    public static func run(adminURL: String, _ statement: String) async throws {
        let databases = Databases(threadPool: NIOThreadPool.singleton, on: MultiThreadedEventLoopGroup.singleton)
        var configuration = try SQLPostgresConfiguration(url: adminURL)
        configuration.coreConfiguration.options.connectTimeout = .seconds(10)
        databases.use(
            .postgres(configuration: configuration, maxConnectionsPerEventLoop: 1, connectionPoolTimeout: .seconds(30)),
            as: .psql)
        var logger = Logger(label: "test-postgres-admin")
        logger.logLevel = .error
        let db = databases.database(.psql, logger: logger, on: MultiThreadedEventLoopGroup.singleton.any())!
        do {
            try await (db as! any SQLDatabase).raw(SQLQueryString(statement)).run()
        } catch {
            await databases.shutdownAsync()
            throw error
        }
        await databases.shutdownAsync()
    }
}

public struct TestSetupError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
