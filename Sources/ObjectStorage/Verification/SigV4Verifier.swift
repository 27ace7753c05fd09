import Foundation
import Vapor

/// Verifies SigV4 the way S3 does, for one access key and region: presigned query URLs (GET, HEAD, PUT) and
/// POST policy forms. Every outcome is a value: success or a `StorageError` with S3's status, code and message.
public struct SigV4Verifier: Sendable {
    public var credentials: SigV4Credentials
    public var region: String
    /// How far `X-Amz-Date` / `x-amz-date` may lie in the future (S3: 15 minutes).
    public var maxClockSkew: TimeInterval
    public var now: @Sendable () -> Date

    public static let maxExpires = 604_800

    public init(
        credentials: SigV4Credentials, region: String, maxClockSkew: TimeInterval = 900,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.credentials = credentials
        self.region = region
        self.maxClockSkew = maxClockSkew
        self.now = now
    }

    /// Query-string authentication, checks in the contract's order (§7.4 / AutoDetail §7.4 rows 4–9).
    public func verifyQuery(_ request: QueryAuthRequest) throws(StorageError) -> VerifiedQueryAuth {
        func parameter(_ name: String) -> String? { request.query.first { $0.name == name }?.value }

        guard request.query.contains(where: { $0.name.lowercased().hasPrefix("x-amz-") }) else {
            throw .accessDenied()
        }
        guard let algorithm = parameter("X-Amz-Algorithm"), let credential = parameter("X-Amz-Credential"),
              let timestamp = parameter("X-Amz-Date"), let expiresText = parameter("X-Amz-Expires"),
              let signedHeaderList = parameter("X-Amz-SignedHeaders"), let signature = parameter("X-Amz-Signature")
        else {
            throw .authorizationQueryParametersError(
                "Query-string authentication version 4 requires the X-Amz-Algorithm, X-Amz-Credential, X-Amz-Signature, X-Amz-Date, X-Amz-SignedHeaders, and X-Amz-Expires parameters.")
        }
        guard algorithm == SigV4.algorithm else {
            throw .authorizationQueryParametersError("X-Amz-Algorithm only supports \"AWS4-HMAC-SHA256\"")
        }
        guard let signedAt = AmzDate.parseTimestamp(timestamp) else {
            throw .authorizationQueryParametersError("X-Amz-Date must be in the ISO8601 Long Format \"yyyyMMdd'T'HHmmss'Z'\"")
        }
        guard let (accessKeyID, scope) = SigV4Scope.parseCredential(credential) else {
            throw .authorizationQueryParametersError(
                "Error parsing the X-Amz-Credential parameter; the Credential is mal-formed; expecting \"<YOUR-AKID>/YYYYMMDD/REGION/SERVICE/aws4_request\".")
        }
        guard scope.region == region else {
            throw .authorizationQueryParametersError(
                "Error parsing the X-Amz-Credential parameter; the region '\(scope.region)' is wrong; expecting '\(region)'")
        }
        guard scope.service == "s3" else {
            throw .authorizationQueryParametersError(
                "Error parsing the X-Amz-Credential parameter; incorrect service \"\(scope.service)\". This endpoint belongs to \"s3\".")
        }
        guard scope.day == String(timestamp.prefix(8)) else {
            throw .authorizationQueryParametersError("Invalid credential date. Date is not the same as X-Amz-Date.")
        }
        guard expiresText.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }), let expires = Int(expiresText), expires >= 1 else {
            throw .authorizationQueryParametersError("X-Amz-Expires should be a number between 1 and 604800")
        }
        guard expires <= Self.maxExpires else {
            throw .authorizationQueryParametersError("X-Amz-Expires must be less than a week (in seconds) that is 604800")
        }
        let headerNames = signedHeaderList.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
        guard headerNames.contains("host"), headerNames.allSatisfy({ !$0.isEmpty && $0 == $0.lowercased() }) else {
            throw .authorizationQueryParametersError("X-Amz-SignedHeaders must include host and list lower-case header names.")
        }

        guard accessKeyID == credentials.accessKeyID else { throw .invalidAccessKeyId }
        let current = now()
        guard current <= signedAt.addingTimeInterval(TimeInterval(expires)) else { throw .requestExpired }
        guard signedAt <= current.addingTimeInterval(maxClockSkew) else { throw .requestNotYetValid }

        let headers = headerNames.map { name in
            (name: name, value: request.headers[name].joined(separator: ","))
        }
        let canonical = CanonicalRequest(
            method: request.method, canonicalURI: request.canonicalURI,
            query: request.query.filter { $0.name != "X-Amz-Signature" }, headers: headers,
            payloadHash: SigV4.unsignedPayload)
        let expected = SigV4.signature(
            of: SigV4.stringToSign(timestamp: timestamp, scope: scope, canonicalRequest: canonical.text),
            signingKey: SigV4.cachedSigningKey(secretAccessKey: credentials.secretAccessKey, scope: scope))
        guard SigV4.signaturesMatch(expected, signature) else { throw .signatureDoesNotMatch }
        return VerifiedQueryAuth(accessKeyID: accessKeyID, signedHeaders: headerNames, signedAt: signedAt, expiresIn: expires)
    }
}
