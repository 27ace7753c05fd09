/// The SigV4 canonical request: method, canonical URI, canonical query, canonical headers, signed headers and
/// payload hash joined by `\n`. Signers and verifiers both build it here, so they cannot drift apart.
public struct CanonicalRequest: Sendable, Equatable {
    public var method: String
    /// Already percent-encoded (see `AWSURIEncoding.encodePath`).
    public var canonicalURI: String
    public var canonicalQuery: String
    /// Lower-case names in signing order, values as they will be sent.
    public var headers: [(name: String, value: String)]
    public var payloadHash: String

    public init(method: String, canonicalURI: String, query: [(name: String, value: String)],
                headers: [(name: String, value: String)], payloadHash: String) {
        self.method = method
        self.canonicalURI = canonicalURI
        self.canonicalQuery = Self.canonicalQueryString(query)
        self.headers = headers.map { ($0.name.lowercased(), $0.value) }
        self.payloadHash = payloadHash
    }

    public static func == (lhs: CanonicalRequest, rhs: CanonicalRequest) -> Bool { lhs.text == rhs.text }

    /// `a;b;c`: the signed header names in the order they are signed.
    public var signedHeaders: String { headers.map(\.name).joined(separator: ";") }

    public var text: String {
        var canonicalHeaders = ""
        for header in headers { canonicalHeaders += "\(header.name):\(Self.trimmedHeaderValue(header.value))\n" }
        return [method, canonicalURI, canonicalQuery, canonicalHeaders, signedHeaders, payloadHash].joined(separator: "\n")
    }

    /// Names and values encoded (`/` too), sorted by encoded name then value, joined with `&`.
    public static func canonicalQueryString(_ parameters: [(name: String, value: String)]) -> String {
        parameters
            .map { (AWSURIEncoding.encode($0.name, keepSlash: false), AWSURIEncoding.encode($0.value, keepSlash: false)) }
            .sorted { $0.0 == $1.0 ? $0.1 < $1.1 : $0.0 < $1.0 }
            .map { "\($0.0)=\($0.1)" }
            .joined(separator: "&")
    }

    /// Outer whitespace removed and inner runs collapsed to one space, as AWS's "Trimall" and botocore do.
    static func trimmedHeaderValue(_ value: String) -> String {
        value.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }).joined(separator: " ")
    }
}
