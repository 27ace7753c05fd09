/// RFC 5545 text rules: TEXT value escaping (§3.3.11) and content-line folding (§3.1).
public enum ICalendarText {
    /// Backslash, semicolon and comma are escaped; any line break becomes `\n`.
    public static func escape(_ text: String) -> String {
        var out = ""
        for scalar in LineEndings.lines(text).joined(separator: "\n").unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case ";": out += "\\;"
            case ",": out += "\\,"
            case "\n": out += "\\n"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Folds a content line into lines of at most 75 octets (continuations start with one space, which counts),
    /// never splitting a UTF-8 sequence.
    public static func fold(_ line: String) -> String {
        var lines: [String] = []
        var current: [UInt8] = []
        var limit = 75
        for scalar in line.unicodeScalars {
            let bytes = Array(String(scalar).utf8)
            if current.count + bytes.count > limit {
                lines.append(String(decoding: current, as: UTF8.self))
                current = [0x20]
                limit = 75
            }
            current += bytes
        }
        lines.append(String(decoding: current, as: UTF8.self))
        return lines.joined(separator: "\r\n")
    }
}
