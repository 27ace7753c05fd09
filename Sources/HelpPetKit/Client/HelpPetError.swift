import ClientCore
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
    public var httpStatus: Int? { common.httpStatus }
}

extension HelpPetError: LocalizedError, CustomStringConvertible {
    /// A one-line message for people.
    public var errorDescription: String? { description }

    public var description: String { common.description }

    /// This error as the kind of failure both kits share (status and wording live in ClientCore).
    var common: CommonFailure {
        switch self {
        case let .unauthorized(detail): return .unauthorized(detail)
        case let .forbidden(detail): return .forbidden(detail)
        case let .notFound(detail): return .refused(status: 404, detail)
        case let .duplicateRecording(id):
            return .refused(status: 409, "A recording already exists for this pet (visit \(id)). Replace it or keep the existing one.")
        case let .uploadInProgress(id):
            return .refused(status: 409, "Another upload for this pet is in progress (visit \(id)); try again later.")
        case let .petNotInAppointment(detail), let .invalid(detail): return .refused(status: 400, detail)
        case let .conflict(detail): return .refused(status: 409, detail)
        case let .rateLimited(retryAfter): return .rateLimited(retryAfter: retryAfter, noun: "attempts")
        case let .server(status, detail): return .server(status: status, detail)
        case .uploadURLExpired: return .local("The upload URL has expired.")
        case let .storage(status, code, message): return .storage(status: status, code: code, message: message)
        case let .transport(_, message): return .transport(message)
        case let .decoding(message): return .decoding(message)
        case let .file(path, reason): return .file(path: path, reason: reason)
        case .cancelled: return .cancelled
        }
    }
}

extension HelpPetError {
    /// Maps a non-2xx API response (`{"detail": ...}` body) to a typed error.
    static func fromAPIResponse(status: Int, body: Data, headers: HTTPURLResponse?) -> HelpPetError {
        let json = try? JSONDecoder().decode(JSONValue.self, from: body)
        let detail = ErrorResponses.message(in: body, json: json, field: "detail", status: status)
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
        let (code, message) = ErrorResponses.storageError(status: status, body: body)
        if status == 403, code == "AccessDenied",
           message.localizedCaseInsensitiveContains("Policy expired")
            || message.localizedCaseInsensitiveContains("Request has expired")
        {
            return .uploadURLExpired
        }
        return .storage(status: status, code: code, message: message)
    }

    /// Maps an error thrown by `URLSession`, a file transfer or a delegate hook.
    package static func fromTransport(_ error: any Error) -> HelpPetError {
        if let error = error as? HelpPetError { return error }
        if let error = error as? LocalFileError { return .file(path: error.path, reason: error.reason) }
        switch TransportFailure(error) {
        case .cancelled: return .cancelled
        case let .network(code, message): return .transport(code: code, message: message)
        case let .other(error): return .transport(code: nil, message: String(describing: error))
        }
    }

    private static func visitId(in detail: String) -> String? {
        guard let range = detail.range(of: "Visit ID: ") else { return nil }
        let id = detail[range.upperBound...].prefix(36)
        return UUID(uuidString: String(id)) != nil ? String(id).lowercased() : nil
    }
}
