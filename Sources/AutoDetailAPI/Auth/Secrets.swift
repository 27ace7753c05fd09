import Crypto
import Foundation

/// API keys, admin tokens and their stored hashes (contract §2.2, §2.3, §2.6).
enum Secrets {
    /// `org_<unix seconds>_<24 hex>` / `ios_…`: the middle part is the creation time, the last 12 random bytes.
    static func newAPIKey(kind: APIKeyKind, now: Date) -> String {
        "\(kind.rawValue)_\(Int64(now.timeIntervalSince1970))_\(randomHex(bytes: 12))"
    }

    /// `adm_` + 32 random bytes in lower-case hex.
    static func newAdminToken() -> String { "adm_" + randomHex(bytes: 32) }

    /// `^(org|ios)_[0-9]{10}_[0-9a-f]{24}$`: anything else is refused without a database lookup.
    static func apiKeyKind(of key: String) -> APIKeyKind? {
        let b = Array(key.utf8)
        guard b.count == 39, b[3] == UInt8(ascii: "_"), b[14] == UInt8(ascii: "_") else { return nil }
        for i in 4..<14 where !(b[i] >= 48 && b[i] <= 57) { return nil }
        for i in 15..<39 where !isLowerHex(b[i]) { return nil }
        return APIKeyKind(rawValue: String(decoding: b[0..<3], as: UTF8.self))
    }

    static func isAdminToken(_ token: String) -> Bool {
        let b = Array(token.utf8)
        guard b.count == 68, token.hasPrefix("adm_") else { return false }
        return b[4...].allSatisfy(isLowerHex)
    }

    /// The first 19 characters, e.g. `org_1741597200_66f4`.
    static func keyPrefix(_ key: String) -> String { String(key.prefix(19)) }

    /// SHA-256 of the UTF-8 text in lower-case hex: the only stored form of keys and tokens.
    static func hash(_ secret: String) -> String {
        // Runs on every key-protected request: hex by table lookup, not 32 `String(format:)` calls.
        let digits = Array("0123456789abcdef".utf8)
        var hex: [UInt8] = []
        hex.reserveCapacity(64)
        for byte in SHA256.hash(data: Data(secret.utf8)) {
            hex.append(digits[Int(byte >> 4)])
            hex.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: hex, as: UTF8.self)
    }

    /// 20 characters of `[A-Za-z0-9]` from the system's CSPRNG (the generated admin password, §8).
    static func newPassword(length: Int = 20) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        var generator = SystemRandomNumberGenerator()
        return String((0..<length).map { _ in alphabet[Int(generator.next(upperBound: UInt64(alphabet.count)))] })
    }

    static func randomHex(bytes: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<bytes).map { _ in String(format: "%02x", UInt8.random(in: 0...255, using: &generator)) }.joined()
    }

    private static func isLowerHex(_ b: UInt8) -> Bool { (b >= 48 && b <= 57) || (b >= 97 && b <= 102) }
}
