import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Runs the built `autodetail` binary (`.build/debug/autodetail`) with its own config folder (`XDG_CONFIG_HOME`)
/// against a running server; returns exit status, stdout and stderr.
struct CLI {
    let server: TestServer
    let configHome: URL

    init(server: TestServer) throws {
        self.server = server
        configHome = server.dataDirectory.appendingPathComponent("config-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: configHome, withIntermediateDirectories: true)
    }

    var credentialsFile: URL { configHome.appendingPathComponent("autodetail/credentials.json") }

    @discardableResult
    func run(_ arguments: [String], stdin: String? = nil, useServer: Bool = true, timeout: TimeInterval = 120)
        async throws -> (status: Int32, out: String, err: String)
    {
        let binary = try TestServer.binary("autodetail")
        let directory = server.dataDirectory.appendingPathComponent("cli-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let outFile = directory.appendingPathComponent("stdout")
        let errFile = directory.appendingPathComponent("stderr")
        let inFile = directory.appendingPathComponent("stdin")
        _ = FileManager.default.createFile(atPath: outFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errFile.path, contents: nil)
        _ = FileManager.default.createFile(atPath: inFile.path, contents: Data((stdin ?? "").utf8))
        let out = try FileHandle(forWritingTo: outFile)
        let err = try FileHandle(forWritingTo: errFile)
        let input = try FileHandle(forReadingFrom: inFile)
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        var environment = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin",
            "HOME": server.dataDirectory.path,
            "XDG_CONFIG_HOME": configHome.path,
        ]
        if useServer { environment["AUTODETAIL_SERVER"] = server.baseURL.absoluteString }
        process.environment = environment
        process.currentDirectoryURL = server.dataDirectory
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning {
            if Date() > deadline {
                Glibc.kill(process.processIdentifier, SIGKILL)
                throw TestFailure("autodetail \(arguments.joined(separator: " ")) did not exit within \(Int(timeout)) s")
            }
            try await Task.sleep(nanoseconds: 20_000_000)
        }
        try? out.close()
        try? err.close()
        try? input.close()
        return (
            process.terminationStatus,
            (try? String(contentsOf: outFile, encoding: .utf8)) ?? "",
            (try? String(contentsOf: errFile, encoding: .utf8)) ?? ""
        )
    }

    /// Runs a `--json` command that must succeed and decodes its stdout.
    func json<T: Decodable>(_ type: T.Type, _ arguments: [String]) async throws -> T {
        let result = try await run(["--json"] + arguments)
        guard result.status == 0 else {
            throw TestFailure("autodetail \(arguments.joined(separator: " ")) exited \(result.status): \(result.err)")
        }
        return try JSONDecoder().decode(T.self, from: Data(result.out.utf8))
    }
}
