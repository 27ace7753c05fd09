import AsyncHTTPClient
import Foundation
import NIOCore
import Vapor
@testable import ObjectStorage

/// A `moto` S3 server (`python3 -m moto.server`) on a free loopback port, for the S3 backend's integration test.
/// moto does not check signatures (the botocore vectors prove those); it proves the requests, addressing,
/// streaming and response handling work against a real S3 API.
final class MotoServer: @unchecked Sendable {
    let process: Process
    let port: Int

    /// moto (with its server extra) can be imported; the suite is skipped otherwise, except under `.ci/run`
    /// (`REQUIRE_PYTHON_TOOLS=1`), where a missing moto must fail the run.
    static let isInstalled: Bool = {
        if PythonBotocore.requiredByCI { return true }
        if ProcessInfo.processInfo.environment["MOTO_AVAILABLE"] == "0" { return false }
        return (try? PythonBotocore.run(["-c", "import moto.server, werkzeug, flask"]).status) == 0
    }()

    private init(process: Process, port: Int) {
        self.process = process
        self.port = port
    }

    var endpoint: String { "http://127.0.0.1:\(port)" }

    static func start(client: HTTPClient) async throws -> MotoServer {
        let portOutput = try PythonBotocore.run([
            "-c", "import socket; s = socket.socket(); s.bind(('127.0.0.1', 0)); print(s.getsockname()[1]); s.close()",
        ])
        guard let port = Int(portOutput.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw MotoError(message: "no free port: \(portOutput.stderr)")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-m", "moto.server", "-H", "127.0.0.1", "-p", String(port)]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let server = MotoServer(process: process, port: port)
        // Wait until it answers (moto takes a second or two to import).
        for _ in 0..<100 {
            if let response = try? await client.execute(HTTPClientRequest(url: server.endpoint + "/moto-api/"), timeout: .seconds(1)),
               response.status.code < 500 {
                return server
            }
            try await Task.sleep(nanoseconds: 200_000_000)
        }
        server.stop()
        throw MotoError(message: "moto did not start on port \(port)")
    }

    /// CreateBucket is not part of the store's interface (buckets are provisioned by operators), so tests sign it
    /// with the same header signer.
    static func createBucket(_ bucket: String, client: HTTPClient, configuration: S3Configuration) async throws -> HTTPResponseStatus {
        let origin = URLOrigin(configuration.endpoint!)!
        let signed = RequestHeaderSigner(credentials: configuration.credentials, region: configuration.region)
            .sign(method: "PUT", host: origin.host, path: "/\(bucket)", date: Date())
        var request = HTTPClientRequest(url: "\(configuration.endpoint!)/\(bucket)")
        request.method = .PUT
        for header in signed.addedHeaders { request.headers.add(name: header.name, value: header.value) }
        return try await client.execute(request, timeout: .seconds(10)).status
    }

    /// SIGKILL: moto's werkzeug server does not exit on SIGTERM.
    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    struct MotoError: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}
