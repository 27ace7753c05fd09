import Crypto
import Foundation

/// The web consoles' cookie credentials. A browser session is an opaque random token in an `HttpOnly` cookie; only
/// its SHA-256 is stored. Its CSRF token is derived from that hash with the server's secret (HMAC), so it needs no
/// storage of its own, is the same for the whole session, and means nothing to another session or another server.
public struct ConsoleCredentials: Sendable {
    /// `X-CSRF-Token` on a fetch, `_csrf` in a form.
    public static let csrfHeader = "X-CSRF-Token"
    public static let csrfFormField = "_csrf"

    private let key: SymmetricKey

    public init(secret: [UInt8]) {
        // A key of its own (not the JWT signing key itself), so a CSRF token can never be mistaken for a signature.
        key = SymmetricKey(data: HMAC<SHA256>.authenticationCode(
            for: Array("console-csrf".utf8), using: SymmetricKey(data: secret)))
    }

    /// 32 random bytes, base64url without padding.
    public static func newSessionToken() -> String {
        let bytes = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
        return bytes.base64EncodedString()
            .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    public static func hash(_ token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    public func csrfToken(forSessionHash sessionHash: String) -> String {
        HMAC<SHA256>.authenticationCode(for: Data(sessionHash.utf8), using: key)
            .map { String(format: "%02x", $0) }.joined()
    }

    /// Constant-time comparison of what the browser sent with the session's token.
    public func isValid(csrf presented: String?, forSessionHash sessionHash: String) -> Bool {
        guard let presented else { return false }
        let expected = Array(csrfToken(forSessionHash: sessionHash).utf8)
        let given = Array(presented.utf8)
        guard given.count == expected.count else { return false }
        var difference: UInt8 = 0
        for index in expected.indices { difference |= expected[index] ^ given[index] }
        return difference == 0
    }
}
