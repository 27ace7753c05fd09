import Foundation
import NIOConcurrencyHelpers
import Vapor

/// Runs `work` every `interval` from application start to shutdown. A failing run is logged and the next one
/// happens on schedule; shutdown waits for the run in progress.
public final class PeriodicTask: LifecycleHandler, Sendable {
    let name: String
    let interval: Duration
    let work: @Sendable (Application) async -> Void
    private let task = NIOLockedValueBox<Task<Void, Never>?>(nil)

    public init(name: String, interval: Duration, work: @escaping @Sendable (Application) async -> Void) {
        self.name = name
        self.interval = interval
        self.work = work
    }

    public func didBootAsync(_ application: Application) async throws {
        let interval = self.interval
        let work = self.work
        task.withLockedValue {
            $0 = Task {
                while !Task.isCancelled {
                    await work(application)
                    try? await Task.sleep(for: interval)
                }
            }
        }
    }

    public func shutdownAsync(_ application: Application) async {
        let running = task.withLockedValue { current -> Task<Void, Never>? in
            defer { current = nil }
            return current
        }
        running?.cancel()
        await running?.value
    }
}
