import Foundation

/// The shape both kits' error enums share, so the HTTP status and the one-line wording of each kind of failure are
/// written once. Each kit maps its own cases (with their contract-specific extras) to one of these.
package enum CommonFailure {
    /// 401: "Unauthorized: …".
    case unauthorized(String)
    /// 403: "Forbidden: …".
    case forbidden(String)
    /// Another 4xx whose message is shown as it is (the server's own text, or the kit's wording).
    case refused(status: Int, String)
    /// 429; `noun` is what was too many ("attempts", "requests").
    case rateLimited(retryAfter: TimeInterval?, noun: String)
    /// 5xx or an undocumented status.
    case server(status: Int, String)
    /// Object storage's S3-style refusal.
    case storage(status: Int, code: String, message: String)
    /// No HTTP answer.
    case transport(String)
    /// An answer that does not decode.
    case decoding(String)
    /// A local file problem.
    case file(path: String, reason: String)
    /// Any other failure without an HTTP status, worded by the kit.
    case local(String)
    case cancelled

    /// The HTTP status the server answered, if the failure came from an HTTP response.
    package var httpStatus: Int? {
        switch self {
        case .unauthorized: return 401
        case .forbidden: return 403
        case .rateLimited: return 429
        case let .refused(status, _), let .server(status, _), let .storage(status, _, _): return status
        case .transport, .decoding, .file, .local, .cancelled: return nil
        }
    }

    /// A one-line message for people.
    package var description: String {
        switch self {
        case let .unauthorized(message): return "Unauthorized: \(message)"
        case let .forbidden(message): return "Forbidden: \(message)"
        case let .refused(_, message), let .local(message): return message
        case let .rateLimited(retryAfter, noun):
            if let retryAfter { return "Too many \(noun); try again in \(Int(retryAfter.rounded(.up))) seconds." }
            return "Too many \(noun); try again later."
        case let .server(status, message): return "Server error \(status): \(message)"
        case let .storage(status, code, message): return "Storage refused the request (\(status) \(code)): \(message)"
        case let .transport(message): return "Network error: \(message)"
        case let .decoding(message): return "Unexpected response: \(message)"
        case let .file(path, reason): return "\(path): \(reason)"
        case .cancelled: return "Cancelled."
        }
    }
}
