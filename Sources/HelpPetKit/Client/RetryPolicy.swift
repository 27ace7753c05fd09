import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// When and how often HelpPetKit repeats a failed request.
///
/// Only requests that are safe to repeat are retried: GETs, the upload of a file to storage, and `complete`
/// (idempotent on the server). They are retried after transport failures (connection refused or lost, timeouts) and
/// after 500, 502, 503 and 504, never after a 4xx. The delay grows exponentially with full jitter
/// (`random(0.5…1) × min(maxDelay, baseDelay × 2^(attempt-1))`), and a `Retry-After` header is honoured.
public struct RetryPolicy: Sendable, Hashable {
    /// Total attempts including the first (1 disables retries).
    public var maxAttempts: Int
    /// Delay before the second attempt, in seconds.
    public var baseDelay: TimeInterval
    /// Upper bound of one delay, in seconds.
    public var maxDelay: TimeInterval

    public init(maxAttempts: Int = 5, baseDelay: TimeInterval = 0.5, maxDelay: TimeInterval = 8) {
        self.maxAttempts = max(1, maxAttempts)
        self.baseDelay = max(0, baseDelay)
        self.maxDelay = max(0, maxDelay)
    }

    /// The default: 5 attempts, 0.5 s doubling up to 8 s.
    public static let `default` = RetryPolicy()
    /// No retries.
    public static let none = RetryPolicy(maxAttempts: 1)

    /// The pause after failed attempt number `attempt` (1-based), honouring `retryAfter` when given.
    public func delay(afterAttempt attempt: Int, retryAfter: TimeInterval? = nil) -> TimeInterval {
        let exponential = min(maxDelay, baseDelay * pow(2, Double(max(0, attempt - 1))))
        let jittered = exponential * Double.random(in: 0.5...1.0)
        if let retryAfter { return min(max(jittered, retryAfter), max(maxDelay, retryAfter)) }
        return jittered
    }

    /// Whether `error` may be retried for a request that is safe to repeat.
    public static func isRetryable(_ error: HelpPetError) -> Bool {
        switch error {
        case let .transport(code, _):
            guard let code else { return true }
            let permanent: Set<URLError.Code> = [
                .cancelled, .badURL, .unsupportedURL, .userAuthenticationRequired, .fileDoesNotExist, .noPermissionsToReadFile,
            ]
            return !permanent.contains(code)
        case let .server(status, _):
            return [500, 502, 503, 504].contains(status)
        case let .storage(status, _, _):
            return [500, 502, 503, 504].contains(status)
        default:
            return false
        }
    }
}
