import Foundation

/// A kit's error type, as the retry policy needs it: which failures may be retried, and the kit's default number of
/// attempts. Public only because each kit's public `RetryPolicy` is `BackoffRetryPolicy<ItsError>`.
public protocol RetryClassifiedError: Error, Sendable {
    /// Total attempts of the kit's `RetryPolicy.default`.
    static var defaultMaxAttempts: Int { get }
    /// Whether this failure may be retried for a request that is safe to repeat (transport failures, some 5xx).
    var isRetryableFailure: Bool { get }
    /// The failure a cancelled task ends with.
    static var cancelled: Self { get }
}

/// When and how often a kit repeats a failed request that is safe to repeat: exponential backoff with full jitter
/// (`random(0.5…1) × min(maxDelay, baseDelay × 2^(attempt-1))`), honouring a `Retry-After` header.
///
/// Generic over the kit's error type so that each kit keeps its own `RetryPolicy` (a typealias) with its own default
/// and its own `isRetryable(_:)` taking its own error, while the arithmetic exists once.
public struct BackoffRetryPolicy<Failure: RetryClassifiedError>: Sendable, Hashable {
    /// Total attempts including the first (1 disables retries).
    public var maxAttempts: Int
    /// Pause before the second attempt, in seconds.
    public var baseDelay: TimeInterval
    /// Upper bound of one pause, in seconds.
    public var maxDelay: TimeInterval

    public init(maxAttempts: Int = Failure.defaultMaxAttempts, baseDelay: TimeInterval = 0.5, maxDelay: TimeInterval = 8) {
        self.maxAttempts = max(1, maxAttempts)
        self.baseDelay = max(0, baseDelay)
        self.maxDelay = max(0, maxDelay)
    }

    /// The kit's default: `Failure.defaultMaxAttempts` attempts, 0.5 s doubling up to 8 s.
    public static var `default`: Self { Self() }
    /// No retries.
    public static var none: Self { Self(maxAttempts: 1) }

    /// The pause after failed attempt number `attempt` (1-based), at least `retryAfter` when the server sent one.
    public func delay(afterAttempt attempt: Int, retryAfter: TimeInterval? = nil) -> TimeInterval {
        let exponential = min(maxDelay, baseDelay * pow(2, Double(max(0, attempt - 1))))
        let jittered = exponential * Double.random(in: 0.5...1.0)
        if let retryAfter { return min(max(jittered, retryAfter), max(maxDelay, retryAfter)) }
        return jittered
    }

    /// Whether `error` may be retried for a request that is safe to repeat.
    public static func isRetryable(_ error: Failure) -> Bool { error.isRetryableFailure }

    /// The 5xx statuses worth another attempt (the others, e.g. 501, will not change).
    package static func isRetryableStatus(_ status: Int) -> Bool { [500, 502, 503, 504].contains(status) }
}

extension BackoffRetryPolicy {
    /// Runs `attempt` (numbered from 1) until it succeeds; after a retryable failure, calls `willPause` with the
    /// failure, the attempt number and the pause, sleeps, and tries again while attempts remain. A cancelled sleep
    /// throws `Failure.cancelled`. Runs on the caller's actor, so the closures may use its state.
    package func run<Value>(
        isolation: isolated (any Actor)? = #isolation,
        willPause: (Failure, Int, TimeInterval) async -> Void = { _, _, _ in },
        _ attempt: (Int) async -> AttemptOutcome<Value, Failure>
    ) async throws(Failure) -> Value {
        var number = 1
        while true {
            let failure: Failure
            let retryAfter: TimeInterval?
            switch await attempt(number) {
            case let .success(value): return value
            case let .final(error): throw error
            case let .retryable(error, after): (failure, retryAfter) = (error, after)
            }
            guard number < maxAttempts, failure.isRetryableFailure else { throw failure }
            let pause = delay(afterAttempt: number, retryAfter: retryAfter)
            await willPause(failure, number, pause)
            do {
                try await Task.sleep(nanoseconds: UInt64(pause * 1_000_000_000))
            } catch {
                throw Failure.cancelled
            }
            number += 1
        }
    }
}

/// How one attempt of a retried operation ended.
package enum AttemptOutcome<Value, Failure: Error> {
    case success(Value)
    /// Tried again if the failure is retryable and attempts remain (after at least `retryAfter` seconds, if given).
    case retryable(Failure, retryAfter: TimeInterval?)
    /// Never tried again (the request may have reached the server and is not safe to repeat, or a hook stopped it).
    case final(Failure)
}
