import ClientCore
import Foundation

/// A typed request to the HelpPet API (in the manner of kean/Get): method, path under the base URL, query, body,
/// and the type the 2xx answer decodes to. Every endpoint of ``HelpPetClient`` is built from one; apps can build
/// their own for endpoints the client does not wrap and send them with ``HelpPetClient/send(_:)``.
public struct Request<Response: Decodable & Sendable>: Sendable {
    public var method: HTTPMethod
    /// Path from the server root, e.g. `/api/v1/pets/{id}`.
    public var path: String
    public var query: [(String, String)]
    public var body: Body?
    /// Sends the bearer token (everything except login).
    public var requiresAuthentication: Bool
    /// Retried after transport failures and 5xx (see ``RetryPolicy``). Defaults to true for GET only.
    public var isRetryable: Bool

    /// A request body.
    public enum Body: Sendable {
        /// JSON bytes (`Content-Type: application/json`).
        case json(Data)
        /// `application/x-www-form-urlencoded` fields, percent-encoded strictly.
        case form([(String, String)])
    }

    public init(
        method: HTTPMethod = .get, path: String, query: [(String, String)] = [], body: Body? = nil,
        requiresAuthentication: Bool = true, isRetryable: Bool? = nil
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.body = body
        self.requiresAuthentication = requiresAuthentication
        self.isRetryable = isRetryable ?? (method == .get)
    }

    /// A request with a JSON body encoded with ``HelpPetCoding/makeEncoder(pretty:)``.
    public init(
        method: HTTPMethod, path: String, query: [(String, String)] = [], json: some Encodable,
        requiresAuthentication: Bool = true, isRetryable: Bool? = nil
    ) throws {
        let data = try HelpPetCoding.makeEncoder().encode(json)
        self.init(
            method: method, path: path, query: query, body: .json(data),
            requiresAuthentication: requiresAuthentication, isRetryable: isRetryable)
    }
}
