import Foundation

/// Percent-encoding exactly as SigV4 requires: every byte of the UTF-8 form except the unreserved characters
/// `A–Z a–z 0–9 - _ . ~` becomes `%XX` (upper-case hex). Paths keep `/`; query names and values encode it.
public enum AWSURIEncoding {
    public static func encode(_ text: String, keepSlash: Bool) -> String {
        var out = [UInt8]()
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isUnreserved(byte) || (keepSlash && byte == UInt8(ascii: "/")) {
                out.append(byte)
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A canonical URI path: each segment encoded once, `/` kept.
    public static func encodePath(_ path: String) -> String { encode(path, keepSlash: true) }

    /// Decodes `%XX` sequences (`+` stays `+`, as S3 reads presigned URLs). Nil for a broken escape or bytes that
    /// are not UTF-8, so a malformed path or parameter can be refused instead of guessed at.
    public static func decode(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        guard bytes.contains(UInt8(ascii: "%")) else { return text }
        var out = [UInt8]()
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            if byte == UInt8(ascii: "%") {
                guard i + 2 < bytes.count, let high = hexValue(bytes[i + 1]), let low = hexValue(bytes[i + 2]) else { return nil }
                out.append(high << 4 | low)
                i += 3
            } else {
                out.append(byte)
                i += 1
            }
        }
        return String(bytes: out, encoding: .utf8)
    }

    static func isUnreserved(_ byte: UInt8) -> Bool {
        (byte >= 65 && byte <= 90) || (byte >= 97 && byte <= 122) || (byte >= 48 && byte <= 57)
            || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "~")
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 48...57: return byte - 48
        case 65...70: return byte - 55
        case 97...102: return byte - 87
        default: return nil
        }
    }
}
