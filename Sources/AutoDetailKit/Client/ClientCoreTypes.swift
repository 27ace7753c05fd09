import ClientCore

// The types AutoDetailKit's public API shares with HelpPetKit live in ClientCore. They are re-exported here by
// typealias rather than `@_exported import ClientCore`: an app that does `import AutoDetailKit` sees exactly the
// names it saw before (and `AutoDetailKit.HTTPMethod` still resolves), not ClientCore's other public names, and no
// underscored attribute is needed. (ClientCore's helpers are `package`, invisible to apps either way.)

/// HTTP methods of the AutoDetail Hub API.
public typealias HTTPMethod = ClientCore.HTTPMethod

/// The answer of requests without a body (204) or whose body is ignored.
public typealias EmptyResponse = ClientCore.EmptyResponse

/// When and how often AutoDetailKit repeats a failed request.
///
/// Only requests that are safe to repeat are retried: GETs, the PUT of a photo to its presigned URL (the store
/// is write-once, so a repeat can never replace a stored photo) and a booking sent with an `Idempotency-Key`. They are retried after transport failures and
/// after 500, 502, 503 and 504 — never after a 4xx. The pause grows exponentially with jitter
/// (`random(0.5…1) × min(maxDelay, baseDelay × 2^(attempt-1))`); a `Retry-After` header is honoured. The default is
/// 4 attempts, 0.5 s doubling up to 8 s.
public typealias RetryPolicy = BackoffRetryPolicy<AutoDetailError>

/// Strict percent-encoding of queries and path segments, shared with HelpPetKit.
typealias PercentEncoding = ClientCore.PercentEncoding

/// What ``RetryPolicy`` retries for AutoDetailKit: every transport failure, and 500, 502, 503 and 504 from the API or
/// from storage.
extension AutoDetailError: ClientFailure {
    /// Attempts of ``RetryPolicy/default``.
    public static var defaultMaxAttempts: Int { 4 }

    /// Whether this failure may be retried for a request that is safe to repeat.
    public var isRetryableFailure: Bool {
        switch self {
        case .transport: return true
        case let .server(status, _), let .storage(status, _, _): return RetryPolicy.isRetryableStatus(status)
        default: return false
        }
    }
}
