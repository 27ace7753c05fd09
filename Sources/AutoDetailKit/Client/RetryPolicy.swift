import Foundation

/// When and how often AutoDetailKit repeats a failed request.
///
/// Only requests that are safe to repeat are retried: GETs and the PUT of a photo to its presigned URL (the store
/// is write-once, so a repeat can never replace a stored photo). They are retried after transport failures and
/// after 500, 502, 503 and 504 — never after a 4xx. The pause grows exponentially with jitter
/// (`random(0.5…1) × min(maxDelay, baseDelay × 2^(attempt-1))`); a `Retry-After` header is honoured.
public struct RetryPolicy: Sendable, Hashable {
    /// Total attempts including the first (1 disables retries).
    public var maxAttempts: Int
    /// Pause before the second attempt, in seconds.
    public var baseDelay: TimeInterval
    /// Upper bound of one pause, in seconds.
    public var maxDelay: TimeInterval

    public init(maxAttempts: Int = 4, baseDelay: TimeInterval = 0.5, maxDelay: TimeInterval = 8) {
        self.maxAttempts = max(1, maxAttempts)
        self.baseDelay = max(0, baseDelay)
        self.maxDelay = max(0, maxDelay)
    }

    /// 4 attempts, 0.5 s doubling up to 8 s.
    public static let `default` = RetryPolicy()
    /// No retries.
    public static let none = RetryPolicy(maxAttempts: 1)

    /// The pause after failed attempt `attempt` (1-based), at least `retryAfter` when the server sent one.
    public func delay(afterAttempt attempt: Int, retryAfter: TimeInterval? = nil) -> TimeInterval {
        let exponential = min(maxDelay, baseDelay * pow(2, Double(max(0, attempt - 1))))
        let jittered = exponential * Double.random(in: 0.5...1.0)
        if let retryAfter { return min(max(jittered, retryAfter), max(maxDelay, retryAfter)) }
        return jittered
    }

    /// Whether `error` may be retried for a request that is safe to repeat.
    public static func isRetryable(_ error: AutoDetailError) -> Bool {
        switch error {
        case .transport: return true
        case let .server(status, _), let .storage(status, _, _): return [500, 502, 503, 504].contains(status)
        default: return false
        }
    }
}
