import AutoDetailKit
import Foundation
import KitTestSupport
import Testing

/// `server seed` seeds AutoDetail Hub too (not only HelpPet): the first start when none happened (admin password
/// and an organisation key printed once), the demo services where missing, and nothing twice.
@Suite("Demo data: server seed", .serialized, .timeLimit(.minutes(20)))
struct DemoSeedTests {
    @Test("server seed on a new database, then serve: services, key and admin password work; a second seed adds nothing")
    func seedThenServe() async throws {
        let data = try TestServer.makeDataDirectory()
        defer {
            ServerDatabase.drop(for: data)
            try? FileManager.default.removeItem(at: data)
        }
        let seeded = try await TestServer.runCommand(["seed"], dataDirectory: data)
        #expect(seeded.status == 0, "\(seeded.output)")
        #expect(seeded.output.contains("HelpPet demo logins"), "\(seeded.output)")
        let password = try #require(
            TestServer.firstMatch(in: seeded.output, after: "AutoDetail Hub first start: admin username=admin password=", until: " "),
            "\(seeded.output)")
        let orgKey = try #require(
            TestServer.firstMatch(in: seeded.output, after: "AutoDetail Hub first start: organisation API key ", until: " "),
            "\(seeded.output)")
        #expect(!seeded.output.contains("demo seed: organisation API key"))

        let again = try await TestServer.runCommand(["seed"], dataDirectory: data)
        #expect(again.status == 0, "\(again.output)")
        #expect(!again.output.contains("AutoDetail Hub first start") && !again.output.contains("organisation API key"))

        let server = try await TestServer.start(dataDirectory: data)
        do {
            // serve does not repeat either product's first start.
            #expect(!server.log.contains("AutoDetail Hub first start"), "\(server.log)")
            #expect(!server.log.contains("HelpPet demo logins"), "\(server.log)")
            let client = server.client(apiKey: orgKey)
            #expect(try await client.validateKey().keyType == "org")
            let services = try await client.services()
            #expect(services.count == 6 && services.contains { $0.name == "Car Washing" })
            let admin = server.client()
            try await admin.adminLogin(username: "admin", password: password)
            #expect(try await admin.settings().timezone == "Europe/Moscow")
            #expect(try await admin.apiKeys().items.count == 1)
        } catch {
            print(server.log)
            await server.stop()
            throw error
        }
        await server.stop()
    }

    @Test("server seed refuses the production environment, and nothing is seeded")
    func seedRefusesProduction() async throws {
        let data = try TestServer.makeDataDirectory()
        defer {
            ServerDatabase.drop(for: data)
            try? FileManager.default.removeItem(at: data)
        }
        // A complete production configuration, so the refusal (not a missing setting) is what stops the command.
        let production = [
            "PUBLIC_BASE_URL": "https://api.example.com", "JWT_SECRET": String(repeating: "s", count: 64),
            "STORAGE_ACCESS_KEY_ID": "SEEDTESTKEY000000001", "STORAGE_SECRET_ACCESS_KEY": String(repeating: "k", count: 40),
            "ADMIN_PASSWORD": "production-admin-password", "BCRYPT_COST": "12",
        ]
        let refused = try await TestServer.runCommand(["seed", "--env", "production"], dataDirectory: data, production)
        #expect(refused.status != 0, "\(refused.output)")
        #expect(refused.output.contains("seed refuses to run in production"), "\(refused.output)")
        #expect(!refused.output.contains("HelpPet demo logins") && !refused.output.contains("organisation API key"))
    }

    @Test("a first start without demo data, then server seed: the services and a key are added, the admin kept")
    func seedAfterBareFirstStart() async throws {
        let data = try TestServer.makeDataDirectory()
        defer {
            ServerDatabase.drop(for: data)
            try? FileManager.default.removeItem(at: data)
        }
        let bare = try await TestServer.start(dataDirectory: data, ["SEED_DEMO_DATA": "false"])
        let password = bare.adminPassword
        #expect(try await bare.client().services().isEmpty)
        await bare.stop()
        #expect(password != nil, "\(bare.log)")

        let seeded = try await TestServer.runCommand(["seed"], dataDirectory: data)
        #expect(seeded.status == 0, "\(seeded.output)")
        #expect(!seeded.output.contains("AutoDetail Hub first start"))
        let orgKey = try #require(
            TestServer.firstMatch(in: seeded.output, after: "AutoDetail Hub demo seed: organisation API key ", until: " "),
            "\(seeded.output)")

        let server = try await TestServer.start(dataDirectory: data)
        do {
            let client = server.client(apiKey: orgKey)
            #expect(try await client.services().map(\.name).contains("Car Washing"))
            #expect(try await client.validateKey().keyType == "org")
            try await server.client().adminLogin(username: "admin", password: try #require(password))
        } catch {
            print(server.log)
            await server.stop()
            throw error
        }
        await server.stop()
    }
}
