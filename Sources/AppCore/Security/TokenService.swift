import Foundation
import JWTKit

/// HS256 access tokens with `sub`, `iat`, `exp` and `ver`, the user's token version (contract §2.1). Role, practice
/// and activation are not claims: they come from the user row, so changes apply at once; a password, role or
/// activation change increments the version, which voids every token minted before it, even in the same second.
public struct TokenService: Sendable {
    public static let lifetimeSeconds = 28_800
    public static let leewaySeconds: TimeInterval = 30

    public struct Claims: JWTPayload, Sendable {
        public var sub: SubjectClaim
        public var iat: IssuedAtClaim
        public var exp: ExpirationClaim
        public var ver: Int

        /// Expiry is checked by `TokenService.verify` against the server clock (tests move it).
        public func verify(using algorithm: some JWTAlgorithm) async throws {}
    }

    public struct VerifiedToken: Sendable {
        public let subject: String
        public let issuedAt: Date
        public let version: Int
    }

    private let keys: JWTKeyCollection

    public init(secret: [UInt8]) async {
        let keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: secret), digestAlgorithm: .sha256)
        self.keys = keys
    }

    public func issue(subject: String, version: Int, now: Date = Date()) async throws -> String {
        let issued = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        let claims = Claims(
            sub: .init(value: subject), iat: .init(value: issued),
            exp: .init(value: issued.addingTimeInterval(TimeInterval(Self.lifetimeSeconds))), ver: version)
        return try await keys.sign(claims, header: ["typ": "JWT"])
    }

    /// Returns nil for any invalid token: bad signature, an `alg` other than HS256 (`none` included), expired, or
    /// without a `ver` claim.
    public func verify(_ token: String, now: Date = Date()) async -> VerifiedToken? {
        guard Self.headerDeclaresHS256(token) else { return nil }
        guard let claims = try? await keys.verify(token, as: Claims.self) else { return nil }
        guard claims.exp.value.addingTimeInterval(Self.leewaySeconds) > now else { return nil }
        return VerifiedToken(subject: claims.sub.value, issuedAt: claims.iat.value, version: claims.ver)
    }

    /// The header must name HS256 itself; the key collection alone would not refuse every other `alg`.
    static func headerDeclaresHS256(_ token: String) -> Bool {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let data = Base64URL.decode(String(parts[0])),
            let header = try? JSONDecoder().decode([String: JSONValue].self, from: data)
        else { return false }
        return header["alg"] == .string("HS256")
    }
}

enum Base64URL {
    static func decode(_ text: String) -> Data? {
        var s = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while s.count % 4 != 0 { s += "=" }
        return Data(base64Encoded: s)
    }
}
