import AppCore
import Vapor

/// `server seed`: inserts the demo data (idempotent; refused in production).
struct SeedCommand: AsyncCommand {
    struct Signature: CommandSignature {}
    var help: String { "Inserts the demo data (existing rows are kept)." }

    func run(using context: CommandContext, signature: Signature) async throws {
        let app = context.application
        // `isRelease` would be true for every release build (it reflects the compiler flags), not the environment.
        guard app.environment != .production else {
            context.console.error("seed refuses to run in production")
            throw ConfigurationError("seed refuses to run in production")
        }
        try await app.autoMigrate()
        try await DatabaseSetup.prepareConnections(app)
        try await DemoData.seedAll(app)
        context.console.info("Demo data is in place.")
    }
}
