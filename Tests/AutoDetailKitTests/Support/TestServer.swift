import AutoDetailKit
import Foundation
import KitTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif
#if canImport(Glibc)
    import Glibc
#endif

/// The built `server` binary (`.build/debug/server`) running `serve` on a free loopback port with a temporary
/// `DATA_DIR` (default SQLite, embedded object store), for tests that drive it only through AutoDetailKit and the
/// `autodetail` binary, exactly as an app would. Stopped and removed by `withServer`.
final class TestServer: @unchecked Sendable {
    static let storageKeyID = "ADKITTESTKEY00000001"
    static let storageSecret = "autodetailkit-tests-storage-secret-0123456789abcdef"

    let port: Int
    let dataDirectory: URL
    private let process: Process

    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }
    var isRunning: Bool { process.isRunning }

    private init(port: Int, dataDirectory: URL, process: Process) {
        self.port = port
        self.dataDirectory = dataDirectory
        self.process = process
    }

    /// Everything the server printed.
    var log: String { (try? String(contentsOf: dataDirectory.appendingPathComponent("server.log"), encoding: .utf8)) ?? "" }

    /// The admin password printed once by the first start.
    var adminPassword: String? {
        Self.firstMatch(in: log, after: "AutoDetail Hub first start: admin username=admin password=", until: " ")
    }

    /// The organisation key printed once by the first start.
    var orgKey: String? { Self.firstMatch(in: log, after: "AutoDetail Hub first start: organisation API key ", until: " ") }

    static func firstMatch(in text: String, after prefix: String, until end: Character) -> String? {
        guard let range = text.range(of: prefix) else { return nil }
        let rest = text[range.upperBound...]
        return String(rest.prefix { $0 != end && $0 != "\n" })
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

    /// The environment of every server of these tests: rate limits off (many `ios/init` calls), bcrypt cost 4, no
    /// transcription engine, known storage keys.
    static func environment(dataDirectory: URL, overrides: [String: String] = [:]) -> [String: String] {
        let inherited = ProcessInfo.processInfo.environment
        var environment = [
            "PATH": inherited["PATH"] ?? "/usr/local/bin:/usr/bin:/bin",
            "HOME": inherited["HOME"] ?? "/tmp",
            "DATA_DIR": dataDirectory.path,
            "BCRYPT_COST": "4",
            "TRANSCRIPTION_ENGINE": "off",
            "DISABLE_RATE_LIMITS": "true",
            "STORAGE_ACCESS_KEY_ID": storageKeyID,
            "STORAGE_SECRET_ACCESS_KEY": storageSecret,
            "LOG_LEVEL": inherited["TEST_LOG_LEVEL"] ?? "warning",
        ]
        environment.merge(ServerDatabase.environment(for: dataDirectory)) { _, new in new }
        environment.merge(overrides) { _, new in new }
        return environment
    }

    /// A new temporary `DATA_DIR` (and, in the PostgreSQL pass, its own database).
    static func makeDataDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("autodetailkit-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try ServerDatabase.create(for: directory)
        return directory
    }

    // MARK: Starting and stopping

    /// Starts `server serve` (on `dataDirectory`, or a new temporary one) and waits until `/health` answers.
    static func start(dataDirectory existing: URL? = nil, _ overrides: [String: String] = [:]) async throws -> TestServer {
        let binary = try binary("server")
        var lastError: (any Error)?
        for _ in 0..<5 {
            let dataDirectory = try existing ?? makeDataDirectory()
            let logFile = dataDirectory.appendingPathComponent("server.log")
            if !FileManager.default.fileExists(atPath: logFile.path) {
                _ = FileManager.default.createFile(atPath: logFile.path, contents: nil)
            }
            let handle = try FileHandle(forWritingTo: logFile)
            try handle.seekToEnd()
            let port = try freePort()
            let process = Process()
            process.executableURL = binary
            process.arguments = ["serve", "--hostname", "127.0.0.1", "--port", String(port)]
            process.environment = environment(dataDirectory: dataDirectory, overrides: overrides)
            process.currentDirectoryURL = dataDirectory
            process.standardOutput = handle
            process.standardError = handle
            process.standardInput = FileHandle.nullDevice
            try process.run()
            try? handle.close()
            let server = TestServer(port: port, dataDirectory: dataDirectory, process: process)
            do {
                try await server.waitUntilReady()
                return server
            } catch {
                lastError = error
                await server.stop()
                let addressInUse = server.log.contains("Address already in use")
                if existing == nil { server.removeData() }
                if addressInUse { continue }
                throw error
            }
        }
        throw lastError ?? TestFailure("server did not start")
    }

    /// Runs `server <arguments>` to completion on `dataDirectory`; returns its exit status and output.
    static func runCommand(_ arguments: [String], dataDirectory: URL, _ overrides: [String: String] = [:]) async throws
        -> (status: Int32, output: String)
    {
        let outFile = dataDirectory.appendingPathComponent("command-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: outFile.path, contents: nil)
        let handle = try FileHandle(forWritingTo: outFile)
        let process = Process()
        process.executableURL = try binary("server")
        process.arguments = arguments
        process.environment = environment(dataDirectory: dataDirectory, overrides: overrides)
        process.currentDirectoryURL = dataDirectory
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(300)
        while process.isRunning {
            if Date() > deadline {
                Glibc.kill(process.processIdentifier, SIGKILL)
                throw TestFailure("server \(arguments.joined(separator: " ")) did not finish within 300 s")
            }
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        try? handle.close()
        return (process.terminationStatus, (try? String(contentsOf: outFile, encoding: .utf8)) ?? "")
    }

    /// Polls `GET /health` until it answers 200; fails early if the process exits.
    func waitUntilReady(timeout: TimeInterval = 120) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        let url = baseURL.appendingPathComponent("health")
        while Date() < deadline {
            guard isRunning else { throw TestFailure("server exited before it was ready:\n\(log)") }
            var request = URLRequest(url: url)
            request.timeoutInterval = 2
            if let (_, response) = try? await URLSession.shared.data(for: request),
                (response as? HTTPURLResponse)?.statusCode == 200
            {
                return
            }
            try await Task.sleep(nanoseconds: 50_000_000)
        }
        throw TestFailure("server on port \(port) not ready after \(Int(timeout)) s:\n\(log)")
    }

    /// SIGTERM, then SIGKILL after `timeout`.
    func stop(timeout: TimeInterval = 20) async {
        guard process.isRunning else { return }
        Glibc.kill(process.processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            if Date() >= deadline {
                Glibc.kill(process.processIdentifier, SIGKILL)
                break
            }
            try? await Task.sleep(nanoseconds: 20_000_000)
        }
        while process.isRunning { try? await Task.sleep(nanoseconds: 20_000_000) }
    }

    func removeData() {
        ServerDatabase.drop(for: dataDirectory)
        try? FileManager.default.removeItem(at: dataDirectory)
    }

    /// A client of this server with its own in-memory credentials.
    func client(apiKey: String? = nil) -> AutoDetailClient {
        AutoDetailClient(
            baseURL: baseURL, credentialStore: InMemoryCredentialStore(StoredCredentials(apiKey: apiKey)),
            configuration: .init(retryPolicy: RetryPolicy(maxAttempts: 2, baseDelay: 0.05, maxDelay: 0.2), requestTimeout: 30))
    }

    /// A client logged in as the admin with the printed first-start password.
    func adminClient() async throws -> AutoDetailClient {
        let client = client()
        guard let password = adminPassword else { throw TestFailure("no admin password in the server log:\n\(log)") }
        try await client.adminLogin(username: "admin", password: password)
        return client
    }

    /// A TCP port that is free right now on 127.0.0.1.
    static func freePort() throws -> Int { try LoopbackPort.free() }
}

/// Runs `body` with a fresh server, then stops it and removes its data; prints the server's log when the body fails.
func withServer<T>(_ overrides: [String: String] = [:], _ body: (TestServer) async throws -> T) async throws -> T {
    let server = try await TestServer.start(overrides)
    do {
        let result = try await body(server)
        await server.stop()
        server.removeData()
        return result
    } catch {
        print("--- server log (port \(server.port)) ---\n\(server.log)")
        await server.stop()
        server.removeData()
        throw error
    }
}

struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
