import AsyncHTTPClient
import Foundation
import KitTestSupport
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1

#if canImport(Glibc)
    import Glibc
#endif

/// The built `server` binary running `serve` on a free loopback port, for end-to-end and multi-process tests.
///
/// Start it with the variables of a `TestDatabase` (`DATA_DIR`, and `DATABASE_URL` on PostgreSQL): two processes
/// started with the same variables share one database (start the first, wait until it is ready, then the second).
/// Output (stdout and stderr) goes to a log file in the data folder; `output` reads it.
public final class ServerProcess: Sendable {
    public let port: Int
    public let logFile: URL
    private let process: Process

    public var baseURL: String { "http://127.0.0.1:\(port)" }
    public var pid: Int32 { process.processIdentifier }
    public var isRunning: Bool { process.isRunning }
    public var output: String { (try? String(contentsOf: logFile, encoding: .utf8)) ?? "" }

    private init(port: Int, logFile: URL, process: Process) {
        self.port = port
        self.logFile = logFile
        self.process = process
    }

    // MARK: Binary and environment

    /// The `server` executable next to the test runner (same build folder), or `SERVER_BINARY`.
    public static var binary: URL {
        if let path = ProcessInfo.processInfo.environment["SERVER_BINARY"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        let runner = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var directory = runner.deletingLastPathComponent()
        // On Linux the runner is `<build>/debug/<Package>PackageTests.xctest` (a file); on macOS a bundle.
        while directory.path != "/" {
            let candidate = directory.appendingPathComponent("server")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory = directory.deletingLastPathComponent()
            if directory.lastPathComponent == ".build" { break }
        }
        return URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent(".build/debug/server")
    }

    /// The environment of a test server: bcrypt cost 4, demo data, no transcription engine, then the product's
    /// `base` (JWT secret, apps, admin password…), the database's variables, then `overrides`. Nothing else is
    /// inherited from the test process (in particular not the admin `DATABASE_URL`), except `PATH` and `HOME`.
    public static func environment(
        base: [String: String], _ database: TestDatabase, _ overrides: [String: String] = [:]
    ) -> [String: String] {
        let inherited = ProcessInfo.processInfo.environment
        var env: [String: String] = [
            "PATH": inherited["PATH"] ?? "/usr/local/bin:/usr/bin:/bin",
            "HOME": inherited["HOME"] ?? "/tmp",
            "BCRYPT_COST": "4",
            "SEED_DEMO_DATA": "true",
            "LOG_LEVEL": inherited["TEST_LOG_LEVEL"] ?? "warning",
            "TRANSCRIPTION_ENGINE": "off",
        ]
        env.merge(base) { _, new in new }
        env.merge(database.environment) { _, new in new }
        env.merge(overrides) { _, new in new }
        return env
    }

    // MARK: Starting and stopping

    /// Starts `server serve --hostname 127.0.0.1 --port <free port>` and, unless `waitUntilReady` is false, waits
    /// until `GET /health` answers 200. Retries with another port if the chosen one was taken meanwhile.
    public static func start(
        environment: [String: String], arguments: [String] = [], waitUntilReady: Bool = true,
        timeout: Duration = .seconds(120)
    ) async throws -> ServerProcess {
        var lastError: (any Error)?
        for _ in 0..<5 {
            let port = try freePort()
            let dataDir = environment["DATA_DIR"].map { URL(fileURLWithPath: $0) } ?? FileManager.default.temporaryDirectory
            let logFile = dataDir.appendingPathComponent("server-\(port)-\(UUID().uuidString.prefix(8)).log")
            let process = try launch(
                ["serve", "--hostname", "127.0.0.1", "--port", String(port)] + arguments, environment: environment,
                logFile: logFile, directory: dataDir)

            let server = ServerProcess(port: port, logFile: logFile, process: process)
            guard waitUntilReady else { return server }
            do {
                try await server.waitUntilReady(timeout: timeout)
                return server
            } catch {
                lastError = error
                if server.isRunning { _ = await server.kill() }
                if server.output.contains("Address already in use") { continue }
                throw error
            }
        }
        throw lastError ?? TestSetupError("server did not start")
    }

    /// Starts `server worker` (no HTTP) and waits until it reports that it runs.
    public static func startWorker(environment: [String: String], timeout: Duration = .seconds(120)) async throws
        -> ServerProcess
    {
        let dataDir = environment["DATA_DIR"].map { URL(fileURLWithPath: $0) } ?? FileManager.default.temporaryDirectory
        let logFile = dataDir.appendingPathComponent("worker-\(UUID().uuidString.prefix(8)).log")
        let process = try launch(["worker"], environment: environment, logFile: logFile, directory: dataDir)
        let worker = ServerProcess(port: 0, logFile: logFile, process: process)
        let deadline = ContinuousClock.now + timeout
        while !worker.output.contains("Worker running") {
            guard process.isRunning else {
                throw TestSetupError("worker exited with status \(process.terminationStatus):\n\(worker.output)")
            }
            guard ContinuousClock.now < deadline else { throw TestSetupError("worker not running:\n\(worker.output)") }
            try await Task.sleep(for: .milliseconds(50))
        }
        return worker
    }

    /// Polls `GET /health` until it answers 200; fails early if the process exits.
    public func waitUntilReady(timeout: Duration = .seconds(120)) async throws {
        let deadline = ContinuousClock.now + timeout
        let health = HTTPClientRequest(url: baseURL + "/health")
        while ContinuousClock.now < deadline {
            guard process.isRunning else {
                throw TestSetupError(
                    "server exited with status \(process.terminationStatus) before it was ready:\n\(output)")
            }
            if let response = try? await HTTPClient.shared.execute(health, timeout: .seconds(2)), response.status == .ok {
                return
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw TestSetupError("server on port \(port) not ready after \(timeout):\n\(output)")
    }

    /// SIGTERM, then waits for the exit (SIGKILL after `timeout`). Returns the exit status.
    @discardableResult
    public func stop(timeout: Duration = .seconds(20)) async -> Int32 {
        if process.isRunning { Glibc.kill(process.processIdentifier, SIGTERM) }
        if await waitForExit(timeout: timeout) { return process.terminationStatus }
        return await self.kill()
    }

    /// SIGKILL (a crash: no shutdown code runs) and waits for the exit.
    @discardableResult
    public func kill() async -> Int32 {
        if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
        _ = await waitForExit(timeout: .seconds(30))
        return process.terminationStatus
    }

    /// True once the process has exited (polled: Foundation offers no async wait).
    public func waitForExit(timeout: Duration) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while process.isRunning {
            if ContinuousClock.now >= deadline { return false }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return true
    }

    public var terminationReason: Process.TerminationReason { process.terminationReason }
    public var terminationStatus: Int32 { process.terminationStatus }

    /// Starts the binary with `arguments`; standard output and error go to a new `logFile`, standard input is empty.
    static func launch(
        _ arguments: [String], environment: [String: String], logFile: URL, directory: URL?
    ) throws -> Process {
        _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
        let handle = try FileHandle(forWritingTo: logFile)
        defer { try? handle.close() }
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.environment = environment
        if let directory { process.currentDirectoryURL = directory }
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return process
    }

    // MARK: One-shot runs

    /// Runs the binary to completion (for commands that exit, or for start-up failures); returns status and output.
    public static func run(
        arguments: [String], environment: [String: String], timeout: Duration = .seconds(60)
    ) async throws -> (status: Int32, output: String) {
        let logFile = FileManager.default.temporaryDirectory
            .appendingPathComponent("server-run-\(UUID().uuidString).log")
        defer { try? FileManager.default.removeItem(at: logFile) }
        let process = try launch(
            arguments, environment: environment, logFile: logFile,
            directory: environment["DATA_DIR"].map { URL(fileURLWithPath: $0) })
        let server = ServerProcess(port: 0, logFile: logFile, process: process)
        if !(await server.waitForExit(timeout: timeout)) {
            _ = await server.kill()
            throw TestSetupError("`server \(arguments.joined(separator: " "))` did not exit within \(timeout):\n\(server.output)")
        }
        return (process.terminationStatus, server.output)
    }

    /// A TCP port that is free right now on 127.0.0.1.
    public static func freePort() throws -> Int { try LoopbackPort.free() }
}

/// Runs `body` with a fresh test database (SQLite file or PostgreSQL database) for `server` processes, recording
/// the engine like every database test, and stopping every process the body started (via `ServerGroup`).
public func withServerDatabase<T>(
    environment: @escaping @Sendable (TestDatabase, [String: String]) -> [String: String],
    _ body: (TestDatabase, ServerGroup) async throws -> T
) async throws -> T {
    try await AsyncGate.applications.withPermit {
        let database = try await TestDatabase.create()
        DatabaseTestLedger.record(database.engine)
        let group = ServerGroup(environment: environment)
        do {
            let result = try await body(database, group)
            await group.stopAll()
            await database.drop()
            return result
        } catch {
            for server in group.all { print("--- server on port \(server.port) ---\n\(server.output)") }
            await group.stopAll()
            await database.drop()
            throw error
        }
    }
}

/// The processes a test started; all are stopped when the test ends.
public final class ServerGroup: Sendable {
    private let servers = NIOLockedValueBox<[ServerProcess]>([])
    /// The product's server environment for a database and the test's overrides.
    private let environment: @Sendable (TestDatabase, [String: String]) -> [String: String]

    public init(environment: @escaping @Sendable (TestDatabase, [String: String]) -> [String: String]) {
        self.environment = environment
    }

    public var all: [ServerProcess] { servers.withLockedValue { $0 } }

    /// Starts a `server serve` on `database` (with the group's environment) and waits until it is ready.
    public func start(_ database: TestDatabase, env: [String: String] = [:], arguments: [String] = []) async throws
        -> ServerProcess
    {
        let server = try await ServerProcess.start(
            environment: environment(database, env), arguments: arguments)
        servers.withLockedValue { $0.append(server) }
        return server
    }

    /// Starts a `server worker` on `database`.
    public func startWorker(_ database: TestDatabase, env: [String: String] = [:]) async throws -> ServerProcess {
        let worker = try await ServerProcess.startWorker(environment: environment(database, env))
        servers.withLockedValue { $0.append(worker) }
        return worker
    }

    public func stopAll() async {
        for server in all where server.isRunning { await server.stop() }
    }
}
