import Foundation
import JWTKit

/// Hand-made tokens for the token-validation tests: other algorithms, other secrets, arbitrary claims.
enum TokenForgery {
    struct Claims: JWTPayload {
        var sub: SubjectClaim
        var iat: IssuedAtClaim
        var exp: ExpirationClaim
        var ver: Int
        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    /// An HMAC-signed token (`HS256`, `HS384` or `HS512` by `digest`) with the given claims and secret.
    static func hmac(
        subject: String, issuedAt: Date = Date(), expires: Date? = nil,
        secret: String = TestEnvironment.jwtSecret, digest: DigestAlgorithm = .sha256, version: Int = 0
    ) async throws -> String {
        let keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: Array(secret.utf8)), digestAlgorithm: digest)
        let issued = Date(timeIntervalSince1970: issuedAt.timeIntervalSince1970.rounded(.down))
        let claims = Claims(
            sub: .init(value: subject), iat: .init(value: issued),
            exp: .init(value: expires ?? issued.addingTimeInterval(28_800)), ver: version)
        return try await keys.sign(claims, header: ["typ": "JWT"])
    }

    /// `{"alg":"none"}` with the given claims and an empty signature.
    static func unsigned(subject: String, issuedAt: Date = Date()) -> String {
        let iat = Int(issuedAt.timeIntervalSince1970)
        let header = base64URL(#"{"alg":"none","typ":"JWT"}"#)
        let payload = base64URL(#"{"sub":"\#(subject)","iat":\#(iat),"exp":\#(iat + 28_800),"ver":0}"#)
        return header + "." + payload + "."
    }

    /// The token with its payload replaced (signature kept), as an attacker editing `sub` would do.
    static func withPayload(_ token: String, subject: String) -> String {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        let iat = Int(Date().timeIntervalSince1970)
        let payload = base64URL(#"{"sub":"\#(subject)","iat":\#(iat),"exp":\#(iat + 28_800),"ver":0}"#)
        return "\(parts[0]).\(payload).\(parts[2])"
    }

    static func base64URL(_ text: String) -> String {
        Data(text.utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}

extension TokenForgery {
    struct UnversionedClaims: JWTPayload {
        var sub: SubjectClaim
        var iat: IssuedAtClaim
        var exp: ExpirationClaim
        func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    /// A correctly signed HS256 token as minted before token versions existed (no `ver` claim).
    static func unversioned(subject: String, secret: String = TestEnvironment.jwtSecret) async throws -> String {
        let keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: Array(secret.utf8)), digestAlgorithm: .sha256)
        let now = Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down))
        let claims = UnversionedClaims(
            sub: .init(value: subject), iat: .init(value: now), exp: .init(value: now.addingTimeInterval(28_800)))
        return try await keys.sign(claims, header: ["typ": "JWT"])
    }
}
