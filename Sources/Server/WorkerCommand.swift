import AppCore
import NIOConcurrencyHelpers
import Vapor

/// `server worker`: the background work without the HTTP API (the reconciler and `TRANSCRIPTION_CONCURRENCY`
/// transcription loops), for deployments that separate API nodes (`serve --no-worker`) from worker nodes. Runs
/// until SIGTERM/SIGINT; shutdown releases the jobs in progress so another worker takes them at once.
struct WorkerCommand: AsyncCommand {
    struct Signature: CommandSignature {}
    var help: String { "Runs the background workers without serving HTTP." }

    func run(using context: CommandContext, signature: Signature) async throws {
        let app = context.application
        try await app.asyncBoot()
        context.console.info("Worker running; stop it with SIGTERM.")
        await SignalWaiter.waitForTermination()
    }
}

/// Suspends until the process receives SIGTERM or SIGINT.
enum SignalWaiter {
    /// Dispatch sources must outlive the wait.
    nonisolated(unsafe) private static var sources: [DispatchSourceSignal] = []

    static func waitForTermination() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let queue = DispatchQueue(label: "signal-waiter")
            let resumed = NIOLockedValueBox(false)
            for sig in [SIGTERM, SIGINT] {
                signal(sig, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: sig, queue: queue)
                source.setEventHandler {
                    let first = resumed.withLockedValue { done -> Bool in
                        defer { done = true }
                        return !done
                    }
                    if first { continuation.resume() }
                }
                source.resume()
                sources.append(source)
            }
        }
    }
}
