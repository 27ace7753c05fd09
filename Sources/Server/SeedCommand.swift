import AppCore
import Vapor

/// `server seed`: inserts the demo data (idempotent; refused in production).
struct SeedCommand: AsyncCommand {
    struct Signature: CommandSignature {}
    var help: String { "Inserts the demo data (existing rows are kept)." }

    func run(using context: CommandContext, signature: Signature) async throws {
        let app = try await context.applicationForSeeding("seed")
        try await DemoData.seedAll(app)
        context.console.info("Demo data is in place.")
    }
}

extension CommandContext {
    /// The application of a command that inserts made-up data (`seed`, `bench-seed`): refused in production, the
    /// database migrated and its connections prepared.
    func applicationForSeeding(_ command: String) async throws -> Application {
        let app = application
        // `isRelease` would be true for every release build (it reflects the compiler flags), not the environment.
        guard app.environment != .production else {
            console.error("\(command) refuses to run in production")
            throw ConfigurationError("\(command) refuses to run in production")
        }
        try await app.autoMigrate()
        try await DatabaseSetup.prepareConnections(app)
        return app
    }
}
