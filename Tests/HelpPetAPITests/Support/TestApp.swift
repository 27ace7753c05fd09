import AppCore
import ServerAssembly
import Fluent
import Foundation
import HelpPetAPI
import Testing
import VaporTesting

/// Settings every test application and every test `server` process starts with.
enum TestEnvironment {
    /// A fixed signing secret, so tests can mint and forge tokens (TokenForgery).
    static let jwtSecret = "test-jwt-secret-0123456789abcdef-0123456789abcdef-0123456789abcdef"

    /// The base environment of an in-process test application (the test's database variables and the test's own
    /// overrides are merged on top).
    static var base: [String: String] {
        [
            "JWT_SECRET": jwtSecret,
            "BCRYPT_COST": "4",
            "DATABASE_POOL_SIZE": "2",
            "LOG_LEVEL": ProcessInfo.processInfo.environment["TEST_LOG_LEVEL"] ?? "error",
        ]
    }
}

/// Runs `body` with an `Application` in the `.testing` environment, configured exactly like `server serve --no-worker`
/// (`ServerAssembly.configure`, Sources/ServerAssembly/): `AppConfig.load`, the core, each product, the consoles,
/// migrations, connection settings and the demo data of contract §8, on a database of its own (TestDatabase).
///
/// - Parameters:
///   - env: configuration variables on top of `TestEnvironment.base` (for example `["DISABLE_RATE_LIMITS": "true"]`
///     or `["CORS_ALLOWED_ORIGINS": "https://app.helppet.ai"]`). Only these reach `AppConfig`; the test
///     process's own environment is never read.
///   - seed: insert the demo data (contract §8) on the first start, as the server does in development.
///   - clock: the server clock (default: the system clock). The seed day is taken from it.
///
/// Every call records the engine it ran on (DatabaseTestLedger).
@discardableResult
func withTestApp<T>(
    env: [String: String] = [:],
    seed: Bool = true,
    clock: (any AppClock)? = nil,
    _ body: (Application) async throws -> T
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
            let now = WireTime.truncated(app.core.clock.now())
            app.testSeedTime = now
            if seed, app.core.config.apps.contains(.helppet),
                try await BootstrapMarker.claimFirstStart(product: "helppet", now: now, on: app.db)
            {
                try await HelpPetDemoData.seed(on: app.db, now: now)
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

/// Runs `body` with an application whose database cannot be reached (PostgreSQL on a closed loopback port):
/// nothing is migrated or seeded. For the 503 rules (contract §1.9) and for "`/health` touches no dependency".
@discardableResult
func withUnreachableDatabaseApp<T>(env: [String: String] = [:], _ body: (Application) async throws -> T) async throws -> T {
    try await AsyncGate.applications.withPermit {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("helppet-tests", isDirectory: true)
            .appendingPathComponent(UUID().uuidString.lowercased(), isDirectory: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let port = try ServerProcess.freePort()  // nothing listens there
        var values = TestEnvironment.base
        values["DATA_DIR"] = directory.path
        values["DATABASE_URL"] = "postgres://helppet:unused@127.0.0.1:\(port)/unreachable?sslmode=disable"
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
    private struct SeedTimeKey: StorageKey { typealias Value = Date }

    /// The instant the demo data was seeded with (whole seconds).
    var testSeedTime: Date {
        get { storage[SeedTimeKey.self] ?? Date() }
        set { storage[SeedTimeKey.self] = newValue }
    }

    /// The practice-local day of the seed: the day of the demo appointments.
    var seedDay: CalendarDay { LocalDay.day(containing: testSeedTime, in: Demo.zone) }
}

extension Application {
    /// Serves this application on a free loopback port for the length of `body` (for tests that need a real socket:
    /// declared lengths, stalled bodies); the server is shut down afterwards, also when `body` throws.
    func whileListening<T>(_ body: (_ port: Int) async throws -> T) async throws -> T {
        let port = try ServerProcess.freePort()
        try await asyncBoot()
        try await server.start(address: .hostname("127.0.0.1", port: port))
        do {
            let result = try await body(port)
            await server.shutdown()
            return result
        } catch {
            await server.shutdown()
            throw error
        }
    }
}
