import AppCore
import Fluent
import ServerAssembly
import Vapor

/// What the `server` executable adds to the assembly the tests share: the configuration from the environment, its
/// commands, and for `serve` and `worker` the migrations (and for `serve` the demo data of a first start).
enum ServerStartup {
    static func configure(_ app: Application, noWorker: Bool) async throws {
        let config = try AppConfig.load(environmentName: app.environment.name)
        // `serve` is the default command; an argument starting with "-" is one of its options.
        let command = app.environment.arguments.dropFirst().first ?? "serve"
        let serving = command == "serve" || command.hasPrefix("-")
        let runsWorkers = (serving && !noWorker) || command == "worker"
        try await ServerAssembly.configure(app, .init(config: config, runsWorkers: runsWorkers))

        app.asyncCommands.use(SeedCommand(), as: "seed")
        app.asyncCommands.use(WorkerCommand(), as: "worker")
        app.asyncCommands.use(BenchSeedCommand(), as: "bench-seed")
        app.asyncCommands.use(TranscribeCommand(), as: "transcribe")

        // `serve` migrates and seeds on start (before any background work runs: that starts with the server);
        // `migrate` and `seed` do it on demand.
        if serving || command == "worker" {
            try await app.autoMigrate()
            try await DatabaseSetup.prepareConnections(app)
        }
        if serving { try await DemoData.seedOnFirstStart(app) }
    }
}
