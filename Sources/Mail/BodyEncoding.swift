import Foundation

/// Content-transfer encodings for bodies (RFC 2045): quoted-printable for text a person may read in the raw
/// `.eml`, base64 for attachments. Both keep every line at 76 characters.
public enum BodyEncoding {
    /// Quoted-printable of UTF-8 text with CRLF line ends. Hard line breaks stay line breaks; a line longer than
    /// 76 characters gets soft breaks (`=` at the end); trailing white space and `=` are encoded.
    public static func quotedPrintable(_ text: String) -> String {
        let lines = LineEndings.lines(text)
        return lines.map(encodeLine).joined(separator: "\r\n")
    }

    static func encodeLine(_ line: String) -> String {
        var out: [String] = []
        var current = ""
        let bytes = Array(line.utf8)
        for (index, byte) in bytes.enumerated() {
            let isLast = index == bytes.count - 1
            let token: String
            switch byte {
            case 0x20, 0x09:
                token = isLast ? Digits.hexEscape(byte) : String(UnicodeScalar(byte))
            case 33...60, 62...126:
                token = String(UnicodeScalar(byte))
            default:
                token = Digits.hexEscape(byte)
            }
            // 75 + the soft break's `=` = 76.
            if current.count + token.count > 75 {
                out.append(current + "=")
                current = ""
            }
            current += token
        }
        out.append(current)
        return out.joined(separator: "\r\n")
    }

    /// Base64 in lines of 76 characters.
    public static func base64(_ data: Data) -> String {
        data.base64EncodedString(options: [.lineLength76Characters, .endLineWithCarriageReturn, .endLineWithLineFeed])
    }
}

/// Line-ending normalisation: any of CRLF, a lone CR or a lone LF ends a line.
public enum LineEndings {
    public static func lines(_ text: String) -> [String] {
        text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    public static func crlf(_ text: String) -> String {
        lines(text).joined(separator: "\r\n")
    }
}
