import Foundation

/// Normalisation of phone numbers, car plates, Telegram handles and URLs (contract §1.12). Each returns nil when
/// the value is invalid (`invalid format`).
enum ContactNormalization {
    /// `+7 (916) 123-45-67` → `+79161234567`; `8 916 123 45 67` → `+79161234567`; `0049…` → `+49…`.
    static func phone(_ raw: String) -> String? {
        var s = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        s.unicodeScalars.removeAll { $0.properties.isWhitespace || "-().".unicodeScalars.contains($0) || $0 == "/" }
        if s.hasPrefix("00") { s = "+" + s.dropFirst(2) }
        if !s.hasPrefix("+") {
            if s.count == 11, s.hasPrefix("8"), s.allSatisfy(\.isASCIIDigit) {
                s = "+7" + s.suffix(10)
            } else {
                s = "+" + s
            }
        }
        let digits = s.dropFirst()
        guard (7...15).contains(digits.count), digits.allSatisfy(\.isASCIIDigit), digits.first != "0" else { return nil }
        return s
    }

    /// ` а123вс  777 ` → `А123ВС 777`: whitespace runs collapsed, upper-cased (locale-independent), letters of any
    /// script, digits, space and `-`. The length rule (2–20) is checked by the caller.
    static func plate(_ raw: String) -> String? {
        let words = raw.split(whereSeparator: { $0.isWhitespace })
        let collapsed = words.joined(separator: " ").uppercased()
        for scalar in collapsed.unicodeScalars {
            let p = scalar.properties
            let ok = p.isAlphabetic || p.numericType == .decimal || scalar == " " || scalar == "-"
            if !ok || p.generalCategory == .control { return nil }
        }
        return collapsed
    }

    /// `@ivan_petrov` → `ivan_petrov` (`^[A-Za-z0-9_]{5,32}$` after dropping one leading `@`).
    static func telegram(_ raw: String) -> String? {
        var s = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        if s.hasPrefix("@") { s.removeFirst() }
        guard (5...32).contains(s.utf8.count),
            s.utf8.allSatisfy({ ($0 >= 48 && $0 <= 57) || ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) || $0 == 95 })
        else { return nil }
        return s
    }

    /// An absolute `http`/`https` URL of at most 2048 characters (`httpsOnly`: `https` only).
    static func absoluteURL(_ s: String, httpsOnly: Bool = false) -> String? {
        guard s.count <= 2048, !s.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F }),
            let components = URLComponents(string: s), let scheme = components.scheme?.lowercased(),
            httpsOnly ? scheme == "https" : (scheme == "http" || scheme == "https"),
            let host = components.host, !host.isEmpty
        else { return nil }
        return s
    }

    /// A profile photo: an `https` URL or `preset:<name>` with `<name>` matching `^[a-z0-9_]{1,32}$`.
    static func profilePhoto(_ s: String) -> String? {
        if s.hasPrefix("preset:") {
            let name = s.dropFirst("preset:".count)
            guard (1...32).contains(name.utf8.count),
                name.utf8.allSatisfy({ ($0 >= 48 && $0 <= 57) || ($0 >= 97 && $0 <= 122) || $0 == 95 })
            else { return nil }
            return s
        }
        return absoluteURL(s, httpsOnly: true)
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
