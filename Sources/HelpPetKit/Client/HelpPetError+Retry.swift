import ClientCore
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// What ``RetryPolicy`` retries for HelpPetKit: transport failures other than the permanent ones, and 500, 502,
/// 503 and 504 from the API or from storage; never a 4xx.
extension HelpPetError: ClientFailure {
    /// Attempts of ``RetryPolicy/default``.
    public static var defaultMaxAttempts: Int { 5 }

    /// Whether this failure may be retried for a request that is safe to repeat.
    public var isRetryableFailure: Bool {
        switch self {
        case let .transport(code, _):
            guard let code else { return true }
            let permanent: Set<URLError.Code> = [
                .cancelled, .badURL, .unsupportedURL, .userAuthenticationRequired, .fileDoesNotExist, .noPermissionsToReadFile,
            ]
            return !permanent.contains(code)
        case let .server(status, _), let .storage(status, _, _):
            return RetryPolicy.isRetryableStatus(status)
        default:
            return false
        }
    }
}
