import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Every failure HelpPetKit reports, typed so an app can react to each case (contract §1.8, §1.9, §9).
///
/// The `detail` strings are the server's own `{"detail": ...}` messages, suitable for showing to the user.
public enum HelpPetError: Error, Sendable, Hashable {
    /// 401: not logged in, a missing, invalid or expired token, an inactive user, or a failed login.
    case unauthorized(detail: String)
    /// 403: the caller's role may not do this.
    case forbidden(detail: String)
    /// 404: unknown id, or an entity outside the caller's visibility.
    case notFound(detail: String)
    /// 409 RecordingConflict: this pet already has a recording for the slot (appointment + pet, or pet + day).
    /// Show the existing visit, and keep the local recording until the user replaces or discards it.
    case duplicateRecording(existingVisitId: String)
    /// 409 RecordingConflict `Recording upload already in progress…`: another upload for this pet is being stored;
    /// retry later.
    case uploadInProgress(existingVisitId: String)
    /// 400: the pet is not part of the appointment (seed 000 rule).
    case petNotInAppointment(detail: String)
    /// 400 or 413: malformed or invalid input (also raised locally by the `validate()` methods).
    case invalid(detail: String)
    /// Any other 409: an illegal status transition, `Audio file has not been uploaded yet`, …
    case conflict(detail: String)
    /// 429: login throttled; try again after `retryAfter` seconds.
    case rateLimited(retryAfter: TimeInterval?)
    /// 5xx (and any status the API does not document), after the retries that were safe.
    case server(status: Int, detail: String)
    /// The presigned upload form has expired (storage answered `Policy expired`); initiate again for the same pet.
    case uploadURLExpired
    /// Object storage refused a request (S3-style XML error), e.g. 403 `AccessDenied` or `SignatureDoesNotMatch`.
    case storage(status: Int, code: String, message: String)
    /// No HTTP answer: connection refused or lost, timeout, DNS failure… (after the retries that were safe).
    case transport(code: URLError.Code?, message: String)
    /// A response that could not be decoded into the expected model.
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
        case .duplicateRecording, .uploadInProgress, .conflict: return 409
        case .petNotInAppointment, .invalid: return 400
        case .rateLimited: return 429
        case let .server(status, _), let .storage(status, _, _): return status
        default: return nil
        }
    }
}

extension HelpPetError: LocalizedError, CustomStringConvertible {
    /// A one-line message for people.
    public var errorDescription: String? { description }

    public var description: String {
        switch self {
        case let .unauthorized(detail): return "Unauthorized: \(detail)"
        case let .forbidden(detail): return "Forbidden: \(detail)"
        case let .notFound(detail): return detail
        case let .duplicateRecording(id):
            return "A recording already exists for this pet (visit \(id)). Replace it or keep the existing one."
        case let .uploadInProgress(id): return "Another upload for this pet is in progress (visit \(id)); try again later."
        case let .petNotInAppointment(detail): return detail
        case let .invalid(detail): return detail
        case let .conflict(detail): return detail
        case let .rateLimited(retryAfter):
            if let retryAfter { return "Too many attempts; try again in \(Int(retryAfter.rounded(.up))) seconds." }
            return "Too many attempts; try again later."
        case let .server(status, detail): return "Server error \(status): \(detail)"
        case .uploadURLExpired: return "The upload URL has expired."
        case let .storage(status, code, message): return "Storage refused the request (\(status) \(code)): \(message)"
        case let .transport(_, message): return "Network error: \(message)"
        case let .decoding(message): return "Unexpected response: \(message)"
        case let .file(path, reason): return "\(path): \(reason)"
        case .cancelled: return "Cancelled."
        }
    }
}

extension HelpPetError {
    /// Maps a non-2xx API response (`{"detail": ...}` body) to a typed error.
    static func fromAPIResponse(status: Int, body: Data, headers: HTTPURLResponse?) -> HelpPetError {
        let json = try? JSONDecoder().decode(JSONValue.self, from: body)
        let detail = json?["detail"]?.stringValue
            ?? String(data: body.prefix(500), encoding: .utf8).flatMap { $0.isEmpty ? nil : $0 }
            ?? HTTPURLResponse.localizedString(forStatusCode: status)
        switch status {
        case 400:
            if detail.contains("is not associated with appointment") { return .petNotInAppointment(detail: detail) }
            return .invalid(detail: detail)
        case 401: return .unauthorized(detail: detail)
        case 403: return .forbidden(detail: detail)
        case 404: return .notFound(detail: detail)
        case 409:
            if let visitId = json?["visit_id"]?.stringValue ?? Self.visitId(in: detail) {
                if detail.localizedCaseInsensitiveContains("in progress") { return .uploadInProgress(existingVisitId: visitId) }
                if detail.localizedCaseInsensitiveContains("already exists") {
                    return .duplicateRecording(existingVisitId: visitId)
                }
            }
            return .conflict(detail: detail)
        case 413, 422: return .invalid(detail: detail)
        case 429:
            let retryAfter = headers?.value(forHTTPHeaderField: "Retry-After").flatMap(TimeInterval.init)
            return .rateLimited(retryAfter: retryAfter)
        default: return .server(status: status, detail: detail)
        }
    }

    /// Maps a non-2xx answer of object storage (S3-style XML error body) to a typed error.
    static func fromStorageResponse(status: Int, body: Data) -> HelpPetError {
        let text = String(data: body.prefix(4096), encoding: .utf8) ?? ""
        let code = xmlElement("Code", in: text) ?? HTTPURLResponse.localizedString(forStatusCode: status)
        let message = xmlElement("Message", in: text) ?? text
        if status == 403, code == "AccessDenied",
           message.localizedCaseInsensitiveContains("Policy expired")
            || message.localizedCaseInsensitiveContains("Request has expired")
        {
            return .uploadURLExpired
        }
        return .storage(status: status, code: code, message: message)
    }

    /// Maps an error thrown by `URLSession`.
    static func fromTransport(_ error: any Error) -> HelpPetError {
        if let error = error as? HelpPetError { return error }
        if error is CancellationError { return .cancelled }
        if let urlError = error as? URLError {
            if urlError.code == .cancelled { return .cancelled }
            return .transport(code: urlError.code, message: urlError.localizedDescription)
        }
        let nsError = error as NSError
        if nsError.domain == NSURLErrorDomain {
            let code = URLError.Code(rawValue: nsError.code)
            if code == .cancelled { return .cancelled }
            return .transport(code: code, message: nsError.localizedDescription)
        }
        return .transport(code: nil, message: String(describing: error))
    }

    private static func visitId(in detail: String) -> String? {
        guard let range = detail.range(of: "Visit ID: ") else { return nil }
        let id = detail[range.upperBound...].prefix(36)
        return UUID(uuidString: String(id)) != nil ? String(id).lowercased() : nil
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
