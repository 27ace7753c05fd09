import AsyncHTTPClient
import Foundation
import KitTestSupport
import NIOCore
import NIOHTTP1

#if canImport(Glibc)
    import Glibc
#endif

/// A `moto` S3 server (`python3 -m moto.server`) on a free loopback port, for product tests that run with
/// `STORAGE_BACKEND=s3` (the object store's own S3 suite has its own launcher). moto checks no signatures, which
/// is what these tests need: an S3 that, like the real one, cannot refuse an upload a valid URL allows.
///
/// Suites using it are skipped when moto is missing, except under `.ci/run` (`REQUIRE_PYTHON_TOOLS=1`), where a
/// missing moto must fail the run (`pip install 'moto[server]'` into a venv on PATH, see .ci/run).
public final class MotoS3: @unchecked Sendable {
    public static let accessKeyID = "testing"
    public static let secretAccessKey = "testing"

    public static let isAvailable: Bool = {
        if ProcessInfo.processInfo.environment["REQUIRE_PYTHON_TOOLS"] == "1" { return true }
        if ProcessInfo.processInfo.environment["MOTO_AVAILABLE"] == "0" { return false }
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        probe.arguments = ["python3", "-c", "import moto.server, werkzeug, flask"]
        probe.standardOutput = FileHandle.nullDevice
        probe.standardError = FileHandle.nullDevice
        guard (try? probe.run()) != nil else { return false }
        probe.waitUntilExit()
        return probe.terminationStatus == 0
    }()

    let process: Process
    public let port: Int
    let client: HTTPClient

    public var endpoint: String { "http://127.0.0.1:\(port)" }

    /// The configuration variables of an application that stores in this server (path-style addressing).
    public var environment: [String: String] {
        [
            "STORAGE_BACKEND": "s3", "S3_ENDPOINT": endpoint, "S3_FORCE_PATH_STYLE": "true",
            "AWS_ACCESS_KEY_ID": Self.accessKeyID, "AWS_SECRET_ACCESS_KEY": Self.secretAccessKey,
        ]
    }

    private init(process: Process, port: Int, client: HTTPClient) {
        self.process = process
        self.port = port
        self.client = client
    }

    /// Starts moto, waits until it answers and creates `buckets` (buckets are provisioned by operators, not by the
    /// server).
    public static func start(buckets: [String]) async throws -> MotoS3 {
        let port = try LoopbackPort.free()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-m", "moto.server", "-H", "127.0.0.1", "-p", String(port)]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let server = MotoS3(process: process, port: port, client: HTTPClient(eventLoopGroupProvider: .singleton))
        do {
            try await server.waitUntilAnswering()
            for bucket in buckets { try await server.createBucket(bucket) }
        } catch {
            await server.stop()
            throw error
        }
        return server
    }

    func waitUntilAnswering() async throws {
        for _ in 0..<150 {
            if let response = try? await client.execute(HTTPClientRequest(url: endpoint + "/moto-api/"), timeout: .seconds(1)),
                response.status.code < 500
            {
                return
            }
            try await Task.sleep(nanoseconds: 200_000_000)
        }
        throw MotoError("moto did not start on port \(port)")
    }

    /// moto accepts an unsigned CreateBucket.
    public func createBucket(_ bucket: String) async throws {
        var request = HTTPClientRequest(url: "\(endpoint)/\(bucket)")
        request.method = .PUT
        let status = try await client.execute(request, timeout: .seconds(10)).status
        guard status == .ok else { throw MotoError("CreateBucket \(bucket): \(status)") }
    }

    /// Sends a request to a URL the server handed out (a presigned POST form or PUT): S3 accepts what the URL allows.
    public func send(
        _ method: HTTPMethod, url: String, headers: [(String, String)] = [], body: [UInt8]
    ) async throws -> (status: HTTPResponseStatus, body: String) {
        var request = HTTPClientRequest(url: url)
        request.method = method
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        request.body = .bytes(ByteBuffer(bytes: body))
        let response = try await client.execute(request, timeout: .seconds(30))
        let text = try await response.body.collect(upTo: 1 << 20)
        return (response.status, String(buffer: text))
    }

    /// SIGKILL: moto's werkzeug server does not exit on SIGTERM.
    public func stop() async {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        try? await client.shutdown()
    }

    struct MotoError: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
