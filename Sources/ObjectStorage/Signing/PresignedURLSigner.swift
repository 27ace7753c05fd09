import Foundation

/// A presigned URL and the headers the client must send with it (every signed header except `host`).
public struct PresignedRequest: Sendable, Equatable, Codable {
    public var method: String
    public var url: String
    /// Exactly these values must be sent (for example `Content-Type` of a presigned PUT).
    public var headers: [String: String]
    public var expiresIn: Int

    public init(method: String, url: String, headers: [String: String], expiresIn: Int) {
        self.method = method
        self.url = url
        self.headers = headers
        self.expiresIn = expiresIn
    }
}

/// SigV4 query-string authentication ("presigned URLs") for GET, HEAD and PUT.
public struct PresignedURLSigner: Sendable {
    public var credentials: SigV4Credentials
    public var region: String

    public init(credentials: SigV4Credentials, region: String) {
        self.credentials = credentials
        self.region = region
    }

    /// The result together with the intermediate forms, so tests can compare them with the reference implementation.
    public struct Signed: Sendable {
        public var request: PresignedRequest
        public var canonicalRequest: CanonicalRequest
        public var stringToSign: String
        public var signature: String
    }

    /// Presigns `method {scheme}://{host}{path}`.
    /// - Parameters:
    ///   - host: `hostname[:port]`, the port only when it is not the scheme's default (it is signed as `host`).
    ///   - path: the decoded path (`/bucket/key` or `/key`); it is encoded here.
    ///   - parameters: extra query parameters, e.g. `response-content-type`; they are signed too.
    ///   - signedHeaders: headers besides `host` the request must carry, e.g. `content-type`.
    public func presign(
        method: String, scheme: String, host: String, path: String,
        parameters: [(name: String, value: String)] = [], signedHeaders: [(name: String, value: String)] = [],
        expiresIn: Int, date: Date
    ) -> Signed {
        let scope = SigV4Scope(day: AmzDate.day(date), region: region)
        let timestamp = AmzDate.timestamp(date)
        var headers = signedHeaders.map { (name: $0.name.lowercased(), value: $0.value) }
        headers.append((name: "host", value: host))
        headers.sort { $0.name < $1.name }

        var query = parameters
        query.append(("X-Amz-Algorithm", SigV4.algorithm))
        query.append(("X-Amz-Credential", scope.credential(accessKeyID: credentials.accessKeyID)))
        query.append(("X-Amz-Date", timestamp))
        query.append(("X-Amz-Expires", String(expiresIn)))
        query.append(("X-Amz-SignedHeaders", headers.map(\.name).joined(separator: ";")))
        if let token = credentials.sessionToken { query.append(("X-Amz-Security-Token", token)) }

        let canonicalURI = AWSURIEncoding.encodePath(path)
        let canonical = CanonicalRequest(
            method: method, canonicalURI: canonicalURI, query: query, headers: headers, payloadHash: SigV4.unsignedPayload)
        let stringToSign = SigV4.stringToSign(timestamp: timestamp, scope: scope, canonicalRequest: canonical.text)
        let signature = SigV4.signature(
            of: stringToSign, signingKey: SigV4.cachedSigningKey(secretAccessKey: credentials.secretAccessKey, scope: scope))

        // The URL carries the canonical (sorted) query and then the signature, as in the contracts' examples.
        let url = "\(scheme)://\(host)\(canonicalURI)?\(canonical.canonicalQuery)&X-Amz-Signature=\(signature)"
        var clientHeaders: [String: String] = [:]
        for header in signedHeaders { clientHeaders[Self.displayName(header.name)] = header.value }
        return Signed(
            request: PresignedRequest(method: method, url: url, headers: clientHeaders, expiresIn: expiresIn),
            canonicalRequest: canonical, stringToSign: stringToSign, signature: signature)
    }

    /// `content-type` → `Content-Type`, the spelling clients expect in a `headers` map.
    static func displayName(_ name: String) -> String {
        name.split(separator: "-", omittingEmptySubsequences: false)
            .map { $0.prefix(1).uppercased() + $0.dropFirst().lowercased() }
            .joined(separator: "-")
    }
}
