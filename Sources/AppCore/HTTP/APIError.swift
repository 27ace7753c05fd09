import Vapor

/// An error with a client-facing message. The error middleware renders it as `{"detail": ...}` or
/// `{"error": ...}` depending on the path (see `ErrorBodyStyle`), plus any extra top-level fields.
public struct APIError: AbortError, Sendable {
    public var status: HTTPResponseStatus
    public var message: String
    /// Extra top-level keys of the error body (for example `visit_id` on recording conflicts).
    public var extraFields: [String: JSONValue]
    public var headers: HTTPHeaders

    public init(
        _ status: HTTPResponseStatus, _ message: String,
        extraFields: [String: JSONValue] = [:], headers: HTTPHeaders = [:]
    ) {
        self.status = status
        self.message = message
        self.extraFields = extraFields
        self.headers = headers
    }

    public var reason: String { message }

    public static func badRequest(_ message: String) -> APIError { .init(.badRequest, message) }
    public static func notFound(_ message: String) -> APIError { .init(.notFound, message) }
    public static func forbidden(_ message: String) -> APIError { .init(.forbidden, message) }
    public static func conflict(_ message: String) -> APIError { .init(.conflict, message) }

    public static func unauthorized(_ message: String) -> APIError {
        .init(.unauthorized, message, headers: ["WWW-Authenticate": "Bearer"])
    }

    public static func tooManyRequests(_ message: String, retryAfter seconds: Int) -> APIError {
        .init(.tooManyRequests, message, headers: ["Retry-After": String(seconds)])
    }

    public static let serviceUnavailable = APIError(
        .serviceUnavailable, "Service temporarily unavailable", headers: ["Retry-After": "1"])

    public static let payloadTooLarge = APIError(.payloadTooLarge, "Request body too large")
}
