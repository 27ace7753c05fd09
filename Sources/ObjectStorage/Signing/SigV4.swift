import Crypto
import Foundation

/// The SigV4 primitives shared by every signer and verifier in this module.
public enum SigV4 {
    public static let algorithm = "AWS4-HMAC-SHA256"
    /// The payload hash of presigned URLs and of the server's own streamed uploads.
    public static let unsignedPayload = "UNSIGNED-PAYLOAD"
    /// SHA-256 of the empty string, the payload hash of a request without a body.
    public static let emptyPayloadHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

    /// `HMAC(HMAC(HMAC(HMAC("AWS4" + secret, day), region), service), "aws4_request")`.
    public static func signingKey(secretAccessKey: String, scope: SigV4Scope) -> SymmetricKey {
        var key = SymmetricKey(data: Data(("AWS4" + secretAccessKey).utf8))
        for part in [scope.day, scope.region, scope.service, "aws4_request"] {
            key = SymmetricKey(data: Data(HMAC<SHA256>.authenticationCode(for: Data(part.utf8), using: key)))
        }
        return key
    }

    /// Lower-case hex `HMAC-SHA256(signingKey, message)`.
    public static func signature(of message: String, signingKey: SymmetricKey) -> String {
        Hex.encode(HMAC<SHA256>.authenticationCode(for: Data(message.utf8), using: signingKey))
    }

    /// `AWS4-HMAC-SHA256\n<timestamp>\n<scope>\n<hex sha256(canonical request)>`.
    public static func stringToSign(timestamp: String, scope: SigV4Scope, canonicalRequest: String) -> String {
        "\(algorithm)\n\(timestamp)\n\(scope)\n\(sha256Hex(canonicalRequest))"
    }

    public static func sha256Hex(_ text: String) -> String {
        Hex.encode(SHA256.hash(data: Data(text.utf8)))
    }

    /// Signature comparison for verifiers: constant time, so a forger learns nothing from response timing.
    public static func signaturesMatch(_ expected: String, _ provided: String) -> Bool {
        Hex.constantTimeEquals(expected, provided)
    }
}
