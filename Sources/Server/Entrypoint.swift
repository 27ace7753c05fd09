import AppCore
import Foundation
import HelpPetAPI
import Logging
import Vapor

@main
enum Entrypoint {
    static func main() async throws {
        var env = try Environment.detect()
        // `serve --no-worker` is ours, not Vapor's: take it out before Vapor parses the arguments.
        let noWorker = env.arguments.contains("--no-worker")
        env.arguments.removeAll { $0 == "--no-worker" }
        try LoggingSystem.bootstrap(from: &env)
        let app = try await Application.make(env)
        do {
            try await ServerAssembly.configure(app, noWorker: noWorker)
            BackupCLI.register(app)
            try await app.execute()
            // SIGTERM/SIGINT: stop accepting and let the requests in flight finish first (Vapor's HTTPServer
            // quiesces, waiting up to its 10 s shutdownTimeout). Vapor itself would stop the server last, after
            // the lifecycle handlers had already closed the password hasher, the object store and the background
            // work those requests still use: they then hung until "Server stop took too long"
            // (docs/transport-safety.md, "Shutdown").
            await app.server.shutdown()
        } catch let error as ConfigurationError {
            FileHandle.standardError.write(Data("\(error.description)\n".utf8))
            try? await app.asyncShutdown()
            exit(2)
        } catch {
            app.logger.report(error: error)
            try? await app.asyncShutdown()
            throw error
        }
        try await app.asyncShutdown()
    }
}
