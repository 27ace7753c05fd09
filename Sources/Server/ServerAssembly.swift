import AppCore
import AutoDetailAPI
import Fluent
import HelpPetAPI
import Transcription
import Vapor

/// Builds the one server process: shared plumbing, then each enabled product.
enum ServerAssembly {
    static func configure(_ app: Application, noWorker: Bool) async throws {
        let config = try AppConfig.load(environmentName: app.environment.name)
        try await CoreBootstrap.configure(app, config: config)
        if config.apps.contains(.helppet) { try HelpPetModule.configure(app) }
        if config.apps.contains(.autodetail) { try AutoDetailModule.configure(app) }
        try ConsoleAssembly.configure(app)

        app.asyncCommands.use(SeedCommand(), as: "seed")
        app.asyncCommands.use(WorkerCommand(), as: "worker")
        app.asyncCommands.use(BenchSeedCommand(), as: "bench-seed")
        app.asyncCommands.use(TranscribeCommand(), as: "transcribe")

        // `serve` (the default command) migrates and seeds on start; `migrate` and `seed` do it on demand.
        let command = app.environment.arguments.dropFirst().first ?? "serve"
        let serving = command == "serve" || command.hasPrefix("-")
        let runsWorkers = (serving && !noWorker) || command == "worker"
        if serving || command == "worker" {
            try await app.autoMigrate()
            try await DatabaseSetup.prepareConnections(app)
        }
        if serving { try await DemoData.seedOnFirstStart(app) }
        if config.apps.contains(.helppet) {
            let worker = runsWorkers ? TranscriptionAssembly.makeWorker(app) : nil
            var engineAvailable: (@Sendable () async -> Bool)?
            if let worker { engineAvailable = { @Sendable in await worker.engineAvailable() } }
            HelpPetModule.registerTranscriptionReadiness(
                app, runsWorkers: runsWorkers, engineAvailable: engineAvailable)
            if runsWorkers { HelpPetModule.startBackgroundWork(app) }
            if let worker { app.lifecycle.use(worker) }
        }
        if config.apps.contains(.autodetail), runsWorkers { AutoDetailModule.startBackgroundWork(app) }
    }
}
