import AppCore
import Foundation
import Testing

/// The first start (contract §8) and the start-up checks (§1.13), with the real `server` binary.
@Suite(.serialized) struct FirstStartTests {
    static let adminLine = #"AutoDetail Hub first start: admin username=admin password=[A-Za-z0-9]{20} \(shown once; change it with POST /api/admin/password\)"#
    static let keyLine = #"AutoDetail Hub first start: organisation API key org_[0-9]{10}_[0-9a-f]{24} \(shown once\)"#

    @Test func generatedPasswordPrintedOnceAndTwoProcessesSeedOnce() async throws {
        try await withServerDatabase { database, group in
            let env = ["ADMIN_PASSWORD": ""]
            let first = try await group.start(database, env: env)
            let second = try await group.start(database, env: env)
            let outputs = [first.output, second.output]
            let adminLines = outputs.map { $0.matches(of: try! Regex(Self.adminLine)).count }
            let keyLines = outputs.map { $0.matches(of: try! Regex(Self.keyLine)).count }
            #expect(adminLines.reduce(0, +) == 1, "\(outputs)")
            #expect(keyLines.reduce(0, +) == 1)
            let printed = try #require(outputs.joined().firstMatch(of: try Regex(#"password=([A-Za-z0-9]{20})"#)))
            let password = String(printed.output[1].substring ?? "")
            let login = try await second.client.json(
                .POST, "/api/admin/login", body: try JSONSerialization.data(withJSONObject: ["username": "admin", "password": password]))
            #expect(login.status == .ok, "\(login)")
            let services = try await second.client.send(.GET, "/api/client/services")
            #expect(services.json.count == 6, "demo services are inserted once")
            // A restart never repeats the first start.
            await first.stop()
            let third = try await group.start(database, env: env)
            #expect(!third.output.contains("AutoDetail Hub first start"))
        }
    }

    @Test func withoutDemoDataOnlyTheAdminIsCreated() async throws {
        try await withServerDatabase { database, group in
            let server = try await group.start(database, env: ["SEED_DEMO_DATA": "false"])
            #expect(!server.output.contains("AutoDetail Hub first start"), "ADMIN_PASSWORD is set and never printed")
            #expect(try await server.client.send(.GET, "/api/client/services").json.count == 0)
            let login = try await server.client.json(
                .POST, "/api/admin/login",
                body: try JSONSerialization.data(withJSONObject: ["username": "admin", "password": TestEnvironment.adminPassword]))
            #expect(login.status == .ok)
        }
    }

    @Test func productionNeedsAnAdminPassword() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("autodetail-prod-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var env = [
            "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin", "DATA_DIR": directory.path,
            "VAPOR_ENV": "production", "JWT_SECRET": String(repeating: "s", count: 32),
            "PUBLIC_BASE_URL": "https://api.autodetailhub.com", "STORAGE_ACCESS_KEY_ID": "AKIDEXAMPLE",
            "STORAGE_SECRET_ACCESS_KEY": String(repeating: "k", count: 40), "APPS": "autodetail",
        ]
        let missing = try await ServerProcess.run(arguments: ["serve", "--port", "0"], environment: env)
        #expect(missing.status == 2)
        #expect(missing.output.contains("configuration error: ADMIN_PASSWORD is required in production"), "\(missing.output)")
        env["ADMIN_PASSWORD"] = "short"
        let short = try await ServerProcess.run(arguments: ["serve", "--port", "0"], environment: env)
        #expect(short.status == 2)
        #expect(short.output.contains("configuration error: ADMIN_PASSWORD must be 12-128 characters"), "\(short.output)")
    }

    @Test func appsSwitchesAutoDetailOff() async throws {
        try await withServerDatabase { database, group in
            let server = try await group.start(database, env: ["APPS": "helppet"])
            let response = try await server.client.send(.GET, "/api/client/services")
            #expect(response.status == .notFound && response.text == #"{"error":"Not found"}"#)
            #expect(try await server.client.send(.GET, "/openapi/autodetail.json").status == .notFound)
            #expect(!server.output.contains("AutoDetail Hub first start"))
        }
    }
}
