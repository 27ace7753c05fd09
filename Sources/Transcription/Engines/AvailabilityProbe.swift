import Foundation
import NIOConcurrencyHelpers

/// An engine's "can it run?" answer when finding it out is slow (Whisper starts Python and loads the weights:
/// about a second on an idle machine, several under load). One probe runs at a time, however many callers ask:
/// the worker loops and `/health/ready` used to start one Python each, and a readiness request that gave up after
/// its 2 s cancelled its own probe, so under load the engine was reported `unavailable` while it worked. Once an
/// answer is known it is returned at once; after `maxAge` a new probe starts in the background and callers keep
/// getting the last answer until it ends. Only callers that come before the first answer wait.
final class AvailabilityProbe: Sendable {
    private struct State {
        var last: (at: Date, ok: Bool)?
        var running: Task<Bool, Never>?
    }

    private let state = NIOLockedValueBox(State())
    private let maxAge: TimeInterval
    private let check: @Sendable () async -> Bool

    init(maxAge: TimeInterval, check: @escaping @Sendable () async -> Bool) {
        self.maxAge = maxAge
        self.check = check
    }

    func isAvailable() async -> Bool {
        let (known, running) = state.withLockedValue { state -> (Bool?, Task<Bool, Never>?) in
            if let last = state.last, Date().timeIntervalSince(last.at) < maxAge { return (last.ok, nil) }
            if state.running == nil {
                // Unstructured on purpose: a caller that stops waiting must not cancel the probe others share.
                state.running = Task { [self] in
                    let ok = await check()
                    self.state.withLockedValue {
                        $0.last = (Date(), ok)
                        $0.running = nil
                    }
                    return ok
                }
            }
            return (state.last?.ok, state.running)
        }
        if let known { return known }
        return await running?.value ?? false
    }
}
