import ClientCore
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Every failure AutoDetailKit reports, typed so an app can react to each case. The `message` strings are the
/// server's own `{"error": "..."}` texts (stable and English, contract §1.5), suitable for showing to the user.
public enum AutoDetailError: Error, Sendable, Hashable {
    /// 401: no key, an unknown, malformed or revoked key (`Invalid API key`), no or an expired admin token, or a
    /// failed admin login. An app should drop its stored install key and call ``AutoDetailClient/initInstall()``.
    case unauthorized(message: String)
    /// 403: this install was blocked by the studio, or an organisation key was used on an install-only route.
    case forbidden(message: String)
    /// 404: unknown id, or an appointment or message the calling key may not see.
    case notFound(message: String)
    /// 409: the slot is full (`Time slot is no longer available`), an illegal status change, a cancelled
    /// appointment, the photo limit, a duplicate service name, an idempotency-key reuse.
    case conflict(message: String)
    /// 400, 413 or 415: missing or invalid input (`Invalid field: kind (must be one of: work, defect)`,
    /// `Invalid time slot`, …); also raised locally before anything is sent.
    case invalid(message: String)
    /// 429: try again after `retryAfter` seconds.
    case rateLimited(retryAfter: TimeInterval?)
    /// 5xx or any status the API does not document, after the retries that were safe.
    case server(status: Int, message: String)
    /// Object storage refused the upload or download (S3-style XML error), e.g. 403 `SignatureDoesNotMatch`.
    case storage(status: Int, code: String, message: String)
    /// No HTTP answer: connection refused or lost, timeout, DNS failure (after the retries that were safe).
    case transport(message: String)
    /// A response that does not decode into the expected model.
    case decoding(String)
    /// A local file could not be read or written.
    case file(path: String, reason: String)
    /// The task was cancelled.
    case cancelled

    /// The HTTP status the server answered, if the error came from an HTTP response.
    public var httpStatus: Int? { common.httpStatus }
}

extension AutoDetailError: LocalizedError, CustomStringConvertible {
    public var errorDescription: String? { description }

    /// A one-line message for people.
    public var description: String { common.description }

    /// This error as the kind of failure both kits share (status and wording live in ClientCore).
    var common: CommonFailure {
        switch self {
        case let .unauthorized(message): return .unauthorized(message)
        case let .forbidden(message): return .forbidden(message)
        case let .notFound(message): return .refused(status: 404, message)
        case let .conflict(message): return .refused(status: 409, message)
        case let .invalid(message): return .refused(status: 400, message)
        case let .rateLimited(retryAfter): return .rateLimited(retryAfter: retryAfter, noun: "requests")
        case let .server(status, message): return .server(status: status, message)
        case let .storage(status, code, message): return .storage(status: status, code: code, message: message)
        case let .transport(message): return .transport(message)
        case let .decoding(message): return .decoding(message)
        case let .file(path, reason): return .file(path: path, reason: reason)
        case .cancelled: return .cancelled
        }
    }
}

extension AutoDetailError {
    /// Maps a non-2xx API answer (`{"error": ...}`) to a typed error.
    static func fromAPIResponse(status: Int, body: Data, retryAfterHeader: String?) -> AutoDetailError {
        let message = ErrorResponses.message(in: body, field: "error", status: status)
        switch status {
        case 400, 413, 415, 422: return .invalid(message: message)
        case 401: return .unauthorized(message: message)
        case 403: return .forbidden(message: message)
        case 404: return .notFound(message: message)
        case 409: return .conflict(message: message)
        case 429: return .rateLimited(retryAfter: retryAfterHeader.flatMap { TimeInterval($0.trimmingCharacters(in: .whitespaces)) })
        default: return .server(status: status, message: message)
        }
    }

    /// Maps a non-2xx answer of object storage (S3 XML error body).
    static func fromStorageResponse(status: Int, body: Data) -> AutoDetailError {
        let (code, message) = ErrorResponses.storageError(status: status, body: body)
        return .storage(status: status, code: code, message: message)
    }

    /// Maps an error thrown by `URLSession` or a file upload.
    package static func fromTransport(_ error: any Error) -> AutoDetailError {
        if let error = error as? AutoDetailError { return error }
        if let error = error as? LocalFileError { return .file(path: error.path, reason: error.reason) }
        switch TransportFailure(error) {
        case .cancelled: return .cancelled
        case let .network(_, message): return .transport(message: message)
        case let .other(error): return .transport(message: (error as NSError).localizedDescription)
        }
    }
}
