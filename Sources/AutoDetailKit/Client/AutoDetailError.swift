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
    public var httpStatus: Int? {
        switch self {
        case .unauthorized: return 401
        case .forbidden: return 403
        case .notFound: return 404
        case .conflict: return 409
        case .invalid: return 400
        case .rateLimited: return 429
        case let .server(status, _), let .storage(status, _, _): return status
        default: return nil
        }
    }
}

extension AutoDetailError: LocalizedError, CustomStringConvertible {
    public var errorDescription: String? { description }

    /// A one-line message for people.
    public var description: String {
        switch self {
        case let .unauthorized(message): return "Unauthorized: \(message)"
        case let .forbidden(message): return "Forbidden: \(message)"
        case let .notFound(message), let .conflict(message), let .invalid(message): return message
        case let .rateLimited(retryAfter):
            if let retryAfter { return "Too many requests; try again in \(Int(retryAfter.rounded(.up))) seconds." }
            return "Too many requests; try again later."
        case let .server(status, message): return "Server error \(status): \(message)"
        case let .storage(status, code, message): return "Storage refused the request (\(status) \(code)): \(message)"
        case let .transport(message): return "Network error: \(message)"
        case let .decoding(message): return "Unexpected response: \(message)"
        case let .file(path, reason): return "\(path): \(reason)"
        case .cancelled: return "Cancelled."
        }
    }
}

extension AutoDetailError {
    /// Maps a non-2xx API answer (`{"error": ...}`) to a typed error.
    static func fromAPIResponse(status: Int, body: Data, retryAfterHeader: String?) -> AutoDetailError {
        let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any]
        let message = (object?["error"] as? String)
            ?? String(data: body.prefix(500), encoding: .utf8).flatMap { $0.isEmpty ? nil : $0 }
            ?? HTTPURLResponse.localizedString(forStatusCode: status)
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
        let text = String(data: body.prefix(4096), encoding: .utf8) ?? ""
        let code = xmlElement("Code", in: text) ?? HTTPURLResponse.localizedString(forStatusCode: status)
        let message = xmlElement("Message", in: text) ?? text
        return .storage(status: status, code: code, message: message)
    }

    /// Maps an error thrown by `URLSession`.
    static func fromTransport(_ error: any Error) -> AutoDetailError {
        if let error = error as? AutoDetailError { return error }
        if error is CancellationError { return .cancelled }
        if let urlError = error as? URLError {
            return urlError.code == .cancelled ? .cancelled : .transport(message: urlError.localizedDescription)
        }
        let nsError = error as NSError
        if nsError.domain == NSURLErrorDomain, nsError.code == URLError.cancelled.rawValue { return .cancelled }
        return .transport(message: nsError.localizedDescription)
    }

    private static func xmlElement(_ name: String, in text: String) -> String? {
        guard let open = text.range(of: "<\(name)>"),
            let close = text.range(of: "</\(name)>", range: open.upperBound..<text.endIndex)
        else { return nil }
        return String(text[open.upperBound..<close.lowerBound])
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }
}
