import ClientCore

// The types HelpPetKit's public API shares with AutoDetailKit live in ClientCore. They are re-exported here by
// typealias rather than `@_exported import ClientCore`: an app that does `import HelpPetKit` sees exactly the names it
// saw before (and `HelpPetKit.HTTPMethod` still resolves), not ClientCore's package-level plumbing, and no
// underscored attribute is needed. (ClientCore's own helpers are `package`, invisible to apps either way.)

/// HTTP methods used by the HelpPet API.
public typealias HTTPMethod = ClientCore.HTTPMethod

/// The answer of requests whose body is ignored.
public typealias EmptyResponse = ClientCore.EmptyResponse

/// Any JSON value, for the free-form parts of the API (`metadata`, `device_metadata`, `upload_fields`); keys are
/// kept exactly as sent, whatever the coder's key strategy (see ``ClientCore/JSONValue``).
public typealias JSONValue = ClientCore.JSONValue

/// When and how often HelpPetKit repeats a failed request.
///
/// Only requests that are safe to repeat are retried: GETs, the upload of a file to storage, and `initiate` and
/// `complete` (idempotent on the server). They are retried after transport failures (connection refused or lost, timeouts) and
/// after 500, 502, 503 and 504, never after a 4xx. The delay grows exponentially with full jitter
/// (`random(0.5…1) × min(maxDelay, baseDelay × 2^(attempt-1))`), and a `Retry-After` header is honoured. The
/// default is 5 attempts, 0.5 s doubling up to 8 s.
public typealias RetryPolicy = BackoffRetryPolicy<HelpPetError>

/// Strict percent-encoding of forms, queries and path segments (contract §9.4), shared with AutoDetailKit.
typealias PercentEncoding = ClientCore.PercentEncoding
