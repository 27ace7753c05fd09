import Foundation
import HelpPetKit
import KitTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The built `server` binary (`.build/debug/server`) running `serve` on a free loopback port with a temporary
/// `DATA_DIR`, for end-to-end tests that drive it only through HelpPetKit. Stopped and removed by `withServer`.
final class TestServer: @unchecked Sendable {
    static let jwtSecret = "helppetkit-tests-jwt-secret-0123456789abcdef-0123456789"
    static let storageKeyID = "HPKITTESTKEY0000001"
    static let storageSecret = "helppetkit-tests-storage-secret-0123456789abcdef"

    let port: Int
    let dataDirectory: URL
    let environment: [String: String]
    private let lock = NSLock()
    private var process: Process
    private var generation = 0

    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }
    var pid: Int32 { lock.withLock { process.processIdentifier } }
    var isRunning: Bool { lock.withLock { process.isRunning } }

    /// Output of every start of this server.
    var log: String {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: dataDirectory.path)) ?? []
        return files.filter { $0.hasPrefix("server-") && $0.hasSuffix(".log") }.sorted()
            .compactMap { try? String(contentsOf: dataDirectory.appendingPathComponent($0), encoding: .utf8) }
            .joined(separator: "\n--- restart ---\n")
    }

    private init(port: Int, dataDirectory: URL, environment: [String: String], process: Process) {
        self.port = port
        self.dataDirectory = dataDirectory
        self.environment = environment
        self.process = process
    }

    // MARK: Binaries

    /// `.build/debug/<name>`: next to the test runner, else from the source tree; `<NAME>_BINARY` overrides.
    static func binary(_ name: String) throws -> URL {
        let override = ProcessInfo.processInfo.environment["\(name.uppercased())_BINARY"] ?? ""
        if !override.isEmpty { return URL(fileURLWithPath: override) }
        var candidates: [URL] = []
        var directory = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        while directory.path != "/" {
            candidates.append(directory.appendingPathComponent(name))
            if directory.lastPathComponent == ".build" { break }
            directory = directory.deletingLastPathComponent()
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        candidates.append(root.appendingPathComponent(".build/debug/\(name)"))
        if let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) { return found }
        throw TestFailure(
            "The `\(name)` binary was not found (looked at \(candidates.map(\.path).joined(separator: ", "))). "
                + "Build it first: `swift build --product \(name)` (or `swift build --build-tests`).")
    }

    // MARK: Starting and stopping

    /// Starts a server with demo data, bcrypt cost 4, no transcription engine and known secrets, plus `overrides`.
    static func start(_ overrides: [String: String] = [:]) async throws -> TestServer {
        let binary = try binary("server")
        var lastError: (any Error)?
        for _ in 0..<5 {
            let dataDirectory = FileManager.default.temporaryDirectory
                .appendingPathComponent("helppetkit-tests-\(UUID().uuidString)", isDirectory: true)
            try FileManager.default.createDirectory(at: dataDirectory, withIntermediateDirectories: true)
            try ServerDatabase.create(for: dataDirectory)
            let inherited = ProcessInfo.processInfo.environment
            var environment = [
                "PATH": inherited["PATH"] ?? "/usr/local/bin:/usr/bin:/bin",
                "HOME": inherited["HOME"] ?? "/tmp",
                "DATA_DIR": dataDirectory.path,
                "JWT_SECRET": jwtSecret,
                "BCRYPT_COST": "4",
                "TRANSCRIPTION_ENGINE": "off",
                "SEED_DEMO_DATA": "true",
                "STORAGE_ACCESS_KEY_ID": storageKeyID,
                "STORAGE_SECRET_ACCESS_KEY": storageSecret,
                "LOG_LEVEL": inherited["TEST_LOG_LEVEL"] ?? "warning",
            ]
            environment.merge(ServerDatabase.environment(for: dataDirectory)) { _, new in new }
            environment.merge(overrides) { _, new in new }
            let port = try freePort()
            let process = try launch(binary, port: port, dataDirectory: dataDirectory, environment: environment, generation: 0)
            let server = TestServer(port: port, dataDirectory: dataDirectory, environment: environment, process: process)
            do {
                try await server.waitUntilReady()
                return server
            } catch {
                lastError = error
                await server.kill()
                let addressInUse = server.log.contains("Address already in use")
                server.removeData()
                if addressInUse { continue }
                throw error
            }
        }
        throw lastError ?? TestFailure("server did not start")
    }

    private static func launch(
        _ binary: URL, port: Int, dataDirectory: URL, environment: [String: String], generation: Int
    ) throws -> Process {
        let logFile = dataDirectory.appendingPathComponent("server-\(generation).log")
        _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
        let handle = try FileHandle(forWritingTo: logFile)
        defer { try? handle.close() }
        let process = Process()
        process.executableURL = binary
        process.arguments = ["serve", "--hostname", "127.0.0.1", "--port", String(port)]
        process.environment = environment
        process.currentDirectoryURL = dataDirectory
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Polls `GET /health` (through HelpPetKit) until it answers; fails early if the process exits.
    func waitUntilReady(timeout: TimeInterval = 120) async throws {
        let client = HelpPetClient(
            baseURL: baseURL, configuration: .init(retryPolicy: .none, requestTimeout: 2))
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            guard isRunning else { throw TestFailure("server exited before it was ready:\n\(log)") }
            let request = Request<JSONValue>(path: "/health", requiresAuthentication: false)
            if let health = try? await client.send(request), health["status"] == "ok" { return }
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        throw TestFailure("server on port \(port) not ready after \(Int(timeout)) s:\n\(log)")
    }

    /// Starts the server again on the same port with the same data (after `kill`).
    func restart() async throws {
        let binary = try Self.binary("server")
        let next = lock.withLock { () -> Int in
            generation += 1
            return generation
        }
        var lastError: (any Error)?
        for _ in 0..<20 {
            let process = try Self.launch(
                binary, port: port, dataDirectory: dataDirectory, environment: environment, generation: next)
            lock.withLock { self.process = process }
            do {
                try await waitUntilReady()
                return
            } catch {
                // The port may still be held for a moment by the killed process.
                lastError = error
                await kill()
                try await Task.sleep(nanoseconds: 200_000_000)
            }
        }
        throw lastError ?? TestFailure("server did not restart")
    }

    /// SIGSTOP: the process freezes; connections are accepted by the kernel but nothing is read.
    func freeze() { Glibc.kill(pid, SIGSTOP) }

    /// SIGCONT: a frozen server carries on.
    func thaw() { Glibc.kill(pid, SIGCONT) }

    /// SIGKILL (works on a frozen process too) and wait for the exit.
    func kill() async {
        let process = lock.withLock { self.process }
        if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
        await waitForExit(process, timeout: 30)
    }

    /// SIGTERM, then SIGKILL after `timeout`.
    func stop(timeout: TimeInterval = 20) async {
        let process = lock.withLock { self.process }
        guard process.isRunning else { return }
        Glibc.kill(process.processIdentifier, SIGCONT)
        Glibc.kill(process.processIdentifier, SIGTERM)
        if !(await waitForExit(process, timeout: timeout)) { await kill() }
    }

    @discardableResult
    private func waitForExit(_ process: Process, timeout: TimeInterval) async -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            if Date() >= deadline { return false }
            try? await Task.sleep(nanoseconds: 20_000_000)
        }
        return true
    }

    func removeData() {
        ServerDatabase.drop(for: dataDirectory)
        try? FileManager.default.removeItem(at: dataDirectory)
    }

    /// A TCP port that is free right now on 127.0.0.1.
    static func freePort() throws -> Int { try LoopbackPort.free() }
}

/// Runs `body` with a fresh server (at most two at a time across this test target: the machine is small), then
/// stops it and removes its data; prints the server's log when the body fails.
func withServer<T>(_ overrides: [String: String] = [:], _ body: (TestServer) async throws -> T) async throws -> T {
    await ServerGate.shared.acquire()
    let server: TestServer
    do {
        server = try await TestServer.start(overrides)
    } catch {
        await ServerGate.shared.release()
        throw error
    }
    do {
        let result = try await body(server)
        await server.stop()
        server.removeData()
        await ServerGate.shared.release()
        return result
    } catch {
        print("--- server log (port \(server.port)) ---\n\(server.log)")
        await server.stop()
        server.removeData()
        await ServerGate.shared.release()
        throw error
    }
}

/// Bounds the number of live test servers of this target.
actor ServerGate {
    static let shared = ServerGate(limit: Int(ProcessInfo.processInfo.environment["HELPPETKIT_TEST_SERVERS"] ?? "") ?? 2)

    private var available: Int
    private var waiters: [CheckedContinuation<Void, Never>] = []

    init(limit: Int) { available = max(1, limit) }

    func acquire() async {
        if available > 0 {
            available -= 1
            return
        }
        await withCheckedContinuation { waiters.append($0) }
    }

    func release() {
        if waiters.isEmpty {
            available += 1
        } else {
            waiters.removeFirst().resume()
        }
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
