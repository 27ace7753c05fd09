import AppCore
import ServerAssembly
@testable import AutoDetailAPI
import Fluent
import Foundation
import Testing
import VaporTesting

/// Settings every test application and every test `server` process starts with.
enum TestEnvironment {
    static let jwtSecret = "test-jwt-secret-0123456789abcdef-0123456789abcdef-0123456789abcdef"
    /// `ADMIN_PASSWORD` of every test database (so it is never generated or printed).
    static let adminPassword = "test-admin-password-1"

    /// The base environment of an in-process test application (the test's database variables and the test's own
    /// overrides are merged on top): AutoDetail Hub only, bcrypt cost 4, rate limits off unless a test turns them on.
    static var base: [String: String] {
        [
            "APPS": "autodetail",
            "JWT_SECRET": jwtSecret,
            "ADMIN_PASSWORD": adminPassword,
            "BCRYPT_COST": "4",
            "DATABASE_POOL_SIZE": "2",
            "DISABLE_RATE_LIMITS": "true",
            "TRANSCRIPTION_ENGINE": "off",
            "LOG_LEVEL": ProcessInfo.processInfo.environment["TEST_LOG_LEVEL"] ?? "error",
        ]
    }
}

/// Runs `body` with an `Application` in the `.testing` environment, configured exactly like `server serve`
/// (`ServerAssembly.configure`, Sources/ServerAssembly/): `AppConfig.load`, the core, AutoDetail and its console,
/// migrations, connection settings and the first start of contract §8 (admin user, demo services, one organisation
/// key, whose full value the test keeps in `app.orgKey`), on a database of its own (TestDatabase).
///
/// - Parameters:
///   - env: configuration variables on top of `TestEnvironment.base` (e.g. `["DISABLE_RATE_LIMITS": "false"]`).
///   - clock: the server clock (default: the system clock); the embedded store signs and verifies with it too.
///
/// Every call records the engine it ran on (DatabaseTestLedger).
@discardableResult
func withTestApp<T>(
    env: [String: String] = [:], clock: (any AppClock)? = nil, _ body: (Application) async throws -> T
) async throws -> T {
    try await AsyncGate.applications.withPermit {
        let database = try await TestDatabase.create()
        var values = TestEnvironment.base
        values.merge(database.environment) { _, new in new }
        values.merge(env) { _, new in new }
        let app: Application
        do {
            app = try await makeTestApplication(values, clock: clock)
        } catch {
            await database.drop()
            throw error
        }
        do {
            try await app.autoMigrate()
            try await DatabaseSetup.prepareConnections(app)
            let lines = try await AutoDetailModule.firstStart(app) ?? []
            if let line = lines.first(where: { $0.contains("organisation API key") }),
                let range = line.range(of: #"org_[0-9]{10}_[0-9a-f]{24}"#, options: .regularExpression)
            {
                app.orgKey = String(line[range])
            }
            let engine: TestDatabase.Engine = app.db.engine == .postgres ? .postgres : .sqlite
            #expect(engine == database.engine, "the application must run on the test's database engine")
            DatabaseTestLedger.record(engine)

            let result = try await body(app)
            try await app.asyncShutdown()
            await database.drop()
            return result
        } catch {
            try? await app.asyncShutdown()
            await database.drop()
            throw error
        }
    }
}

/// `Application.make(.testing)` put together by `ServerAssembly.configure`, the function `server` itself calls, from
/// `values` only and with no background work.
func makeTestApplication(_ values: [String: String], clock: (any AppClock)?) async throws -> Application {
    let app = try await Application.make(.testing)
    do {
        let config = try AppConfig.load(environmentName: app.environment.name, env: EnvironmentReader(values))
        // As `server serve --no-worker`: no reconciler, delivery loop or transcription worker runs inside a test.
        try await ServerAssembly.configure(app, .init(config: config, clock: clock ?? SystemClock(), runsWorkers: false))
        return app
    } catch {
        try? await app.asyncShutdown()
        throw error
    }
}

extension Application {
    private struct OrgKeyKey: StorageKey { typealias Value = String }

    /// The demo organisation key printed at the first start.
    var orgKey: String {
        get { storage[OrgKeyKey.self] ?? "" }
        set { storage[OrgKeyKey.self] = newValue }
    }
}

/// Runs `body` with an application whose database cannot be reached (PostgreSQL on a closed loopback port): nothing is
/// migrated or seeded. For the 503 rule (ARCHITECTURE.md "Shared surface", contract §1.5).
@discardableResult
func withUnreachableDatabaseApp<T>(env: [String: String] = [:], _ body: (Application) async throws -> T) async throws -> T {
    try await AsyncGate.applications.withPermit {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("autodetail-tests", isDirectory: true)
            .appendingPathComponent(UUID().uuidString.lowercased(), isDirectory: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let port = try ServerProcess.freePort()
        var values = TestEnvironment.base
        values["DATA_DIR"] = directory.path
        values["DATABASE_URL"] = "postgres://autodetail:unused@127.0.0.1:\(port)/unreachable?sslmode=disable"
        values.merge(env) { _, new in new }
        let app = try await makeTestApplication(values, clock: nil)
        do {
            let result = try await body(app)
            try await app.asyncShutdown()
            return result
        } catch {
            try? await app.asyncShutdown()
            throw error
        }
    }
}
