/// Which error format a path answers in (ARCHITECTURE.md, "Error bodies by path").
public enum ErrorBodyStyle: Sendable {
    /// `{"detail": ...}`: `/api/v1/**` and every root path (`/health*`, `/metrics`, `/openapi*`, ...).
    case detail
    /// `{"error": ...}`: every other `/api/**` path (AutoDetail Hub).
    case error
    /// S3-style XML: `/storage/**`.
    case s3XML

    public init(path: String) {
        if path == "/api/v1" || path.hasPrefix("/api/v1/") {
            self = .detail
        } else if path == "/api" || path.hasPrefix("/api/") {
            self = .error
        } else if path == "/storage" || path.hasPrefix("/storage/") {
            self = .s3XML
        } else {
            self = .detail
        }
    }

    /// The message of an unmatched route in this style.
    public var notFoundMessage: String {
        switch self {
        case .detail: return "Not Found"
        case .error: return "Not found"
        case .s3XML: return "The specified bucket does not exist"
        }
    }
}
