import Foundation

/// SigV4 `Authorization`-header signing for the server's own calls to S3 (HEAD, GET with Range, PUT, DELETE,
/// HeadBucket).
public struct RequestHeaderSigner: Sendable {
    public var credentials: SigV4Credentials
    public var region: String

    public init(credentials: SigV4Credentials, region: String) {
        self.credentials = credentials
        self.region = region
    }

    public struct Signed: Sendable {
        /// Every header to send besides the caller's own: `Authorization`, `x-amz-date`, `x-amz-content-sha256`
        /// and, with temporary credentials, `x-amz-security-token`.
        public var addedHeaders: [(name: String, value: String)]
        public var canonicalRequest: CanonicalRequest
        public var stringToSign: String
        public var signature: String
        public var authorization: String
    }

    /// Signs a request.
    /// - Parameters:
    ///   - host: `hostname[:port]` exactly as the `Host` header will be sent.
    ///   - path: the decoded path; it is encoded here.
    ///   - headers: the caller's headers to sign (e.g. `range`, `content-type`); `host` and the `x-amz-*` headers are added.
    ///   - payloadHash: `UNSIGNED-PAYLOAD` for streamed bodies, the empty-body hash or a real hash otherwise.
    public func sign(
        method: String, host: String, path: String, query: [(name: String, value: String)] = [],
        headers: [(name: String, value: String)] = [], payloadHash: String = SigV4.unsignedPayload, date: Date
    ) -> Signed {
        let scope = SigV4Scope(day: AmzDate.day(date), region: region)
        let timestamp = AmzDate.timestamp(date)
        var added: [(name: String, value: String)] = [("x-amz-content-sha256", payloadHash), ("x-amz-date", timestamp)]
        if let token = credentials.sessionToken { added.append(("x-amz-security-token", token)) }

        var signed = headers.map { (name: $0.name.lowercased(), value: $0.value) }
        signed.append((name: "host", value: host))
        signed.append(contentsOf: added)
        signed.sort { $0.name < $1.name }

        let canonical = CanonicalRequest(
            method: method, canonicalURI: AWSURIEncoding.encodePath(path), query: query, headers: signed,
            payloadHash: payloadHash)
        let stringToSign = SigV4.stringToSign(timestamp: timestamp, scope: scope, canonicalRequest: canonical.text)
        let signature = SigV4.signature(
            of: stringToSign, signingKey: SigV4.cachedSigningKey(secretAccessKey: credentials.secretAccessKey, scope: scope))
        let authorization = "\(SigV4.algorithm) Credential=\(scope.credential(accessKeyID: credentials.accessKeyID)), "
            + "SignedHeaders=\(canonical.signedHeaders), Signature=\(signature)"
        added.append(("Authorization", authorization))
        return Signed(
            addedHeaders: added, canonicalRequest: canonical, stringToSign: stringToSign, signature: signature,
            authorization: authorization)
    }
}
