import Vapor

/// What a query-authenticated (presigned) request looks like to the verifier, independent of Vapor's `Request`.
public struct QueryAuthRequest: Sendable {
    public var method: String
    /// The canonical URI: the decoded path re-encoded with `AWSURIEncoding.encodePath`.
    public var canonicalURI: String
    /// Decoded query parameters in the order received.
    public var query: [(name: String, value: String)]
    public var headers: HTTPHeaders

    public init(method: String, canonicalURI: String, query: [(name: String, value: String)], headers: HTTPHeaders) {
        self.method = method
        self.canonicalURI = canonicalURI
        self.query = query
        self.headers = headers
    }

    /// Parses a raw (percent-encoded) query string. Nil when an escape is broken, so it can be refused.
    public static func parseQuery(_ raw: String?) -> [(name: String, value: String)]? {
        guard let raw, !raw.isEmpty else { return [] }
        var result: [(name: String, value: String)] = []
        for pair in raw.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = AWSURIEncoding.decode(String(parts[0])),
                  let value = AWSURIEncoding.decode(parts.count > 1 ? String(parts[1]) : "")
            else { return nil }
            result.append((name, value))
        }
        return result
    }
}

/// What a verified presigned request was allowed to do.
public struct VerifiedQueryAuth: Sendable, Equatable {
    public var accessKeyID: String
    public var signedHeaders: [String]
    public var signedAt: Date
    public var expiresIn: Int
}
