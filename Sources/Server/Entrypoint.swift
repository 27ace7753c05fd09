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
            try await ServerStartup.configure(app, noWorker: noWorker)
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
            // A command that fails (a missing file for `transcribe`, a bad folder for `restore`) ends with its
            // message and exit status 1, not a crash report from an error thrown out of `main`.
            app.logger.report(error: error)
            FileHandle.standardError.write(Data("server: \(Self.message(for: error))\n".utf8))
            try? await app.asyncShutdown()
            exit(1)
        }
        try await app.asyncShutdown()
    }

    /// Foundation's file errors read well as their localized description; everything else as itself.
    static func message(for error: any Error) -> String {
        let domain = (error as NSError).domain
        if domain == NSCocoaErrorDomain || domain == NSPOSIXErrorDomain { return error.localizedDescription }
        return String(describing: error)
    }
}
