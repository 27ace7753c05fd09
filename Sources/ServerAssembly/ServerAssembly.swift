import AppCore
import AutoDetailAPI
import Fluent
import HelpPetAPI
import Transcription
import Vapor

/// Builds the one server process: shared plumbing, each enabled product, the consoles and the background work. The
/// `server` executable and every test application call this same function, so a wiring mistake fails the tests.
package enum ServerAssembly {
    package struct Options: Sendable {
        package var config: AppConfig
        package var clock: any AppClock
        /// `serve` without `--no-worker`, and `worker`: the reconciler, the email and push loops, the transcription
        /// worker and the cleanups run in this process. Never in a test application.
        package var runsWorkers: Bool

        package init(config: AppConfig, clock: any AppClock = SystemClock(), runsWorkers: Bool) {
            self.config = config
            self.clock = clock
            self.runsWorkers = runsWorkers
        }
    }

    package static func configure(_ app: Application, _ options: Options) async throws {
        let config = options.config
        try await CoreBootstrap.configure(app, config: config, clock: options.clock)
        if config.apps.contains(.helppet) { try HelpPetModule.configure(app) }
        if config.apps.contains(.autodetail) { try AutoDetailModule.configure(app) }
        try ConsoleAssembly.configure(app)
        if config.apps.contains(.helppet) {
            let worker = options.runsWorkers ? TranscriptionAssembly.makeWorker(app) : nil
            var engineAvailable: (@Sendable () async -> Bool)?
            if let worker { engineAvailable = { @Sendable in await worker.engineAvailable() } }
            HelpPetModule.registerTranscriptionReadiness(
                app, runsWorkers: options.runsWorkers, engineAvailable: engineAvailable)
            if options.runsWorkers { HelpPetModule.startBackgroundWork(app) }
            if let worker { app.lifecycle.use(worker) }
        }
        if config.apps.contains(.autodetail), options.runsWorkers { AutoDetailModule.startBackgroundWork(app) }
    }
}
