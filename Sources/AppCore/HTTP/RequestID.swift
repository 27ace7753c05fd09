import Foundation
import Vapor

/// The request id echoed on every response: an incoming `X-Request-ID` matching `^[A-Za-z0-9._-]{1,128}$`,
/// otherwise a new lowercase UUID.
public enum RequestID {
    public static let header = "X-Request-ID"

    public static func resolve(_ incoming: String?) -> String {
        if let value = incoming, isValid(value) { return value }
        return UUID().uuidString.lowercased()
    }

    public static func isValid(_ value: String) -> Bool {
        guard (1...128).contains(value.utf8.count) else { return false }
        return value.utf8.allSatisfy { b in
            (b >= 48 && b <= 57) || (b >= 65 && b <= 90) || (b >= 97 && b <= 122) || b == 46 || b == 95 || b == 45
        }
    }
}

private struct RequestIDKey: StorageKey { typealias Value = String }
private struct AuthenticatedSubjectKey: StorageKey { typealias Value = String }

extension Request {
    /// The id of this request (set by `RequestObservationMiddleware`).
    public var requestID: String {
        get { storage[RequestIDKey.self] ?? "unknown" }
        set { storage[RequestIDKey.self] = newValue }
    }

    /// The authenticated caller's id, for the request log line only.
    public var loggedSubject: String? {
        get { storage[AuthenticatedSubjectKey.self] }
        set { storage[AuthenticatedSubjectKey.self] = newValue }
    }
}
