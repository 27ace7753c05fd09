import AppCore
import Foundation
import SQLKit
import Testing

/// The built `server` binary, started as a process: configuration errors, serving over TCP, two processes on one
/// database, SIGTERM and SIGKILL (ARCHITECTURE "Runtime", "Database concurrency rules").
@Suite(.timeLimit(.minutes(20))) struct ServerStartupTests {
    static func environment(_ values: [String: String]) -> [String: String] {
        var env = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "JWT_SECRET": TestEnvironment.jwtSecret]
        env.merge(values) { _, new in new }
        return env
    }

    @Test(arguments: [
        (["PORT": "abc"], "configuration error: PORT must be an integer between 1 and 65535, got 'abc'"),
        (["DATABASE_URL": "mysql://x"], "configuration error: DATABASE_URL must be a postgres:// URL"),
        (["CORS_ALLOWED_ORIGINS": "*"], "configuration error: CORS_ALLOWED_ORIGINS"),
        (["VAPOR_ENV": "production", "JWT_SECRET": ""], "configuration error: PUBLIC_BASE_URL is required in production"),
    ])
    func badConfigurationExitsNonZeroWithAClearMessage(_ values: [String: String], _ message: String) async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("helppet-bad-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        var env = Self.environment(values)
        env["DATA_DIR"] = dir.path
        let (status, output) = try await ServerProcess.run(arguments: ["serve"], environment: env)
        #expect(status != 0, "\(output)")
        #expect(output.contains(message), "\(output)")
        #expect(!output.contains("Fatal error"), "\(output)")
        // Nothing was created: the configuration is checked before the database is opened.
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("app.sqlite").path))
    }

    @Test func servesOverTCP() async throws {
        try await withServerDatabase { database, servers in
            let server = try await servers.start(database)
            let client = server.client
            let health = try await client.get("/health")
            #expect(health.status == .ok)
            #expect(health.json["status"].string == "ok")
            let token = try await client.login(Demo.vet1)
            let me = try await client.get("/api/v1/auth/me", token: token)
            #expect(me.status == .ok)
            #expect(me.json["username"].string == "vet1")
            #expect(me.headers.first(name: "X-Request-ID") != nil)
            let ready = try await client.get("/health/ready")
            #expect(ready.status == .ok, "\(ready)")
            // The demo credentials are printed at the first start (stdout is a file here: read it after the exit).
            await server.stop()
            #expect(server.output.contains("owner1 / password123"), "\(server.output)")
        }
    }

    @Test func twoProcessesShareOneDatabase() async throws {
        try await withServerDatabase { database, servers in
            let first = try await servers.start(database)
            let second = try await servers.start(database)
            #expect(first.port != second.port)

            // A token issued by one process is valid on the other (same JWT_SECRET, same users).
            let token = try await first.client.login(Demo.admin)
            let created = try await first.client.post("/api/v1/practices", token: token, json: ["name": "Shared", "timezone": "UTC"])
            #expect(created.status == .created, "\(created)")
            let id = try #require(created.json["id"].string)
            let seen = try await second.client.get("/api/v1/practices/\(id)", token: token)
            #expect(seen.status == .ok, "\(seen)")
            #expect(seen.json["name"].string == "Shared")

            // Writes from both processes at once all land.
            try await withThrowingTaskGroup(of: TestResponse.self) { group in
                for n in 0..<10 {
                    let server = n.isMultiple(of: 2) ? first : second
                    group.addTask {
                        try await server.client.post("/api/v1/practices", token: token, json: ["name": "P\(n)", "timezone": "UTC"])
                    }
                }
                for try await response in group { #expect(response.status == .created, "\(response)") }
            }
            let all = try await second.client.get("/api/v1/practices?limit=200", token: token)
            #expect(all.headers.first(name: "X-Total-Count") == "12", "\(all)")

            // Only the first start seeded and printed the credentials (read after exit: stdout is buffered).
            let firstStatus = await first.stop()
            let secondStatus = await second.stop()
            #expect(firstStatus == 0 && secondStatus == 0)
            #expect(first.output.contains("HelpPet demo logins"), "\(first.output)")
            #expect(!second.output.contains("HelpPet demo logins"), "\(second.output)")
        }
    }

    @Test func sigtermStopsCleanly() async throws {
        try await withServerDatabase { database, servers in
            let server = try await servers.start(database)
            let status = await server.stop()
            #expect(!server.isRunning)
            #expect(server.terminationReason == .exit, "ended by a signal: \(server.output)")
            #expect(status == 0, "\(server.output)")
        }
    }

    @Test func restartAfterSIGKILLKeepsTheDataAndDoesNotSeedAgain() async throws {
        try await withServerDatabase { database, servers in
            let first = try await servers.start(database)
            let admin = try await first.client.login(Demo.admin)
            let created = try await first.client.post("/api/v1/practices", token: admin, json: ["name": "Survivor", "timezone": "UTC"])
            #expect(created.status == .created)
            await first.kill()
            #expect(first.terminationReason == .uncaughtSignal)

            let second = try await servers.start(database)
            let list = try await second.client.get("/api/v1/practices", token: admin)
            #expect(list.json.array?.compactMap { $0["name"].string }.sorted() == ["HelpPet Demo Clinic", "Survivor"])
            await second.stop()
            #expect(!second.output.contains("HelpPet demo logins"), "\(second.output)")
        }
    }

    @Test func oneProcessCrashingLeavesTheOtherServing() async throws {
        try await withServerDatabase { database, servers in
            let first = try await servers.start(database)
            let second = try await servers.start(database)
            let token = try await first.client.login(Demo.vet1)
            await first.kill()
            let me = try await second.client.get("/api/v1/auth/me", token: token)
            #expect(me.status == .ok, "\(me)")
            let login = try await second.client.login(Demo.vet2)
            #expect(!login.isEmpty)
        }
    }

    @Test func seedCanBeTurnedOff() async throws {
        try await withServerDatabase { database, servers in
            let server = try await servers.start(database, env: ["SEED_DEMO_DATA": "false"])
            let login = try await server.client.post("/api/v1/auth/token", json: ["username": "vet1", "password": "password123"])
            #expect(login.status == .unauthorized, "\(login)")
            await server.stop()
            #expect(!server.output.contains("HelpPet demo logins"))
        }
    }
}
