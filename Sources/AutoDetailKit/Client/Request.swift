import ClientCore
import Foundation

/// Which credential a request carries.
public enum Authentication: Sendable, Hashable {
    /// Public routes: nothing is sent (the server ignores credentials there anyway).
    case none
    /// The stored API key, as `X-API-Key` (contract §2.4).
    case apiKey
    /// The stored admin token, as `Authorization: Bearer`.
    case admin
}

/// A typed request (in the manner of kean/Get): method, path from the server root, query, JSON body, credential,
/// and the type the 2xx answer decodes to. Every endpoint of ``AutoDetailClient`` is built from one; an app can
/// send its own with ``AutoDetailClient/send(_:)``.
public struct Request<Response: Decodable & Sendable>: Sendable {
    public var method: HTTPMethod
    /// Path from the server root, e.g. `/api/client/services`.
    public var path: String
    public var query: [(String, String)]
    /// JSON bytes, sent with `Content-Type: application/json`.
    public var body: Data?
    public var authentication: Authentication
    /// Extra headers (e.g. `Idempotency-Key`).
    public var headers: [String: String]
    /// Retried after transport failures and 5xx (see ``RetryPolicy``). Defaults to true for GET only.
    public var isRetryable: Bool

    public init(
        method: HTTPMethod = .get, path: String, query: [(String, String)] = [], body: Data? = nil,
        authentication: Authentication, headers: [String: String] = [:], isRetryable: Bool? = nil
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.body = body
        self.authentication = authentication
        self.headers = headers
        self.isRetryable = isRetryable ?? (method == .get)
    }

    /// A request whose body is `json` encoded with a plain `JSONEncoder` (camelCase keys, as the API expects).
    public init(
        method: HTTPMethod, path: String, query: [(String, String)] = [], json: some Encodable,
        authentication: Authentication, headers: [String: String] = [:], isRetryable: Bool? = nil
    ) throws(AutoDetailError) {
        let data: Data
        do {
            let encoder = JSONEncoder()
            // Sorted keys make the same value always the same bytes: the server replays an `Idempotency-Key` only for
            // a byte-identical body, and JSONEncoder's key order is otherwise not stable between calls.
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            data = try encoder.encode(json)
        } catch {
            throw .invalid(message: "Cannot encode the request body: \(error)")
        }
        self.init(
            method: method, path: path, query: query, body: data, authentication: authentication, headers: headers,
            isRetryable: isRetryable)
    }
}
