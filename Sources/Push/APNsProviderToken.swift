import Crypto
import Foundation

/// The provider authentication token: an ES256 JWT (`kid`, `iss`, `iat`). APNs rejects tokens older than an hour
/// and throttles providers that make a new one per request, so one token is reused and renewed well before the
/// hour (and at once after `403 ExpiredProviderToken`).
public actor APNsProviderToken {
    /// Signs tokens with the `.p8` key.
    public struct Signer: Sendable {
        let key: P256.Signing.PrivateKey
        let keyID: String
        let teamID: String

        public init(configuration: APNsConfiguration) throws {
            key = try P256.Signing.PrivateKey(pemRepresentation: configuration.privateKeyPEM)
            keyID = configuration.keyID
            teamID = configuration.teamID
        }

        public func token(issuedAt: Date) throws -> String {
            let header = #"{"alg":"ES256","kid":"\#(keyID)"}"#
            let claims = #"{"iss":"\#(teamID)","iat":\#(Int(issuedAt.timeIntervalSince1970))}"#
            let signingInput = Base64URL.encode(Data(header.utf8)) + "." + Base64URL.encode(Data(claims.utf8))
            // JWS ES256 wants the raw 64-byte r‖s, not DER.
            let signature = try key.signature(for: Data(signingInput.utf8)).rawRepresentation
            return signingInput + "." + Base64URL.encode(signature)
        }
    }

    /// Renewed after 50 minutes: inside Apple's one hour, outside its "no more than once every 20 minutes".
    public static let lifetime: TimeInterval = 50 * 60

    private let signer: Signer
    private let now: @Sendable () -> Date
    private var current: (token: String, issuedAt: Date)?

    public init(signer: Signer, now: @escaping @Sendable () -> Date = { Date() }) {
        self.signer = signer
        self.now = now
    }

    public func token() throws -> String {
        let instant = now()
        if let current, instant.timeIntervalSince(current.issuedAt) < Self.lifetime, instant >= current.issuedAt {
            return current.token
        }
        let token = try signer.token(issuedAt: instant)
        current = (token, instant)
        return token
    }

    /// Forgets the token APNs called expired, unless another request already replaced it.
    public func invalidate(_ token: String) {
        if current?.token == token { current = nil }
    }
}

enum Base64URL {
    static func encode(_ data: Data) -> String {
        data.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
