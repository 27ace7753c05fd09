/// Where a sign-in may send the browser next: only a page of this console on this origin.
///
/// Browsers are more forgiving than a prefix check: they drop tabs and newlines from a `Location`, read `\` as `/`,
/// and resolve `%2e%2e` as `..`. So `/\t/evil.example` (which passed "starts with one slash") becomes
/// `//evil.example`, another site. The rule here accepts a path only when no such forgiveness can change what it
/// means: printable ASCII without a backslash, one leading slash, and a path that, percent-decoded, has no control
/// character, whitespace, backslash, empty or dot segment, and stays under the console's mount.
public struct SignInReturnPath: Sendable {
    /// "" for a console mounted at `/`, else its prefix such as "/clinic".
    let mountPrefix: String

    public init(mount: ConsoleMount) {
        mountPrefix = mount.prefix
    }

    /// `candidate` when it is a safe page of the console, else nil.
    public func accepted(_ candidate: String?) -> String? {
        guard let candidate, !candidate.isEmpty, candidate.utf8.count <= 2048 else { return nil }
        guard candidate.unicodeScalars.allSatisfy(Self.isPlainVisibleASCII) else { return nil }
        guard candidate.hasPrefix("/"), !candidate.hasPrefix("//") else { return nil }
        let path = candidate.prefix { $0 != "?" && $0 != "#" }
        guard let decoded = Self.percentDecoded(path), Self.isPlainPath(decoded) else { return nil }
        guard isUnderMount(decoded) else { return nil }
        return candidate
    }

    private func isUnderMount(_ path: String) -> Bool {
        mountPrefix.isEmpty || path == mountPrefix || path.hasPrefix(mountPrefix + "/")
    }

    /// `!` to `~` except `\`: no control character, no space, nothing a browser would drop, fold or re-encode.
    static func isPlainVisibleASCII(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value >= 0x21 && scalar.value <= 0x7E && scalar != "\\"
    }

    /// After decoding: still plain ASCII, no `//` (an empty segment a browser or proxy may fold), no `.` or `..`.
    static func isPlainPath(_ path: String) -> Bool {
        guard path.unicodeScalars.allSatisfy(isPlainVisibleASCII), !path.contains("//") else { return false }
        return !path.split(separator: "/", omittingEmptySubsequences: false).contains { $0 == "." || $0 == ".." }
    }

    /// Percent-decodes a path once; nil for a malformed escape or bytes that are not UTF-8.
    static func percentDecoded(_ path: Substring) -> String? {
        var bytes: [UInt8] = []
        var index = path.utf8.startIndex
        let utf8 = path.utf8
        while index < utf8.endIndex {
            let byte = utf8[index]
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                index = utf8.index(after: index)
                continue
            }
            let first = utf8.index(after: index)
            guard first < utf8.endIndex else { return nil }
            let second = utf8.index(after: first)
            guard second < utf8.endIndex, let high = hexValue(utf8[first]), let low = hexValue(utf8[second]) else {
                return nil
            }
            bytes.append(high << 4 | low)
            index = utf8.index(after: second)
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
