import Foundation

/// Header text for RFC 5322 headers: RFC 2047 encoded words for non-ASCII text, quoted strings for display names
/// with specials, and folding so no header line passes 78 characters where it can be avoided (998 always).
public enum HeaderEncoding {
    /// An encoded word holds at most 75 characters; `=?UTF-8?B?` and `?=` take 12, leaving 63 base64 characters,
    /// so 45 bytes of text (60 characters) per word.
    static let bytesPerWord = 45

    /// Unstructured text (Subject): as is when printable ASCII, else encoded words split on character boundaries.
    public static func unstructured(_ text: String) -> String {
        let clean = text.replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " ")
        if isPlainASCII(clean) { return clean }
        return encodedWords(clean).joined(separator: "\r\n ")
    }

    /// A display name: an atom sequence as is, a quoted string when it holds specials, encoded words when it is not
    /// ASCII.
    public static func phrase(_ text: String) -> String {
        let clean = text.replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " ")
        guard isPlainASCII(clean) else { return encodedWords(clean).joined(separator: "\r\n ") }
        let specials = CharacterSet(charactersIn: "()<>[]:;@\\,.\"")
        if clean.unicodeScalars.contains(where: { specials.contains($0) }) {
            let escaped = clean.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            return "\"\(escaped)\""
        }
        return clean
    }

    /// `=?UTF-8?B?...?=` words, each at most 75 characters, never splitting one character's bytes between words.
    public static func encodedWords(_ text: String) -> [String] {
        var words: [String] = []
        var chunk: [UInt8] = []
        for character in text {
            let bytes = Array(String(character).utf8)
            if chunk.count + bytes.count > bytesPerWord, !chunk.isEmpty {
                words.append(word(chunk))
                chunk = []
            }
            chunk += bytes
        }
        if !chunk.isEmpty { words.append(word(chunk)) }
        return words
    }

    static func word(_ bytes: [UInt8]) -> String {
        "=?UTF-8?B?\(Data(bytes).base64EncodedString())?="
    }

    static func isPlainASCII(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { $0.value >= 32 && $0.value < 127 }
    }
}
