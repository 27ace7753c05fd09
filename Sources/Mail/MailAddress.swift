/// A mailbox: an address and an optional display name (which may be non-ASCII; the header encodes it).
public struct MailAddress: Sendable, Equatable {
    public var address: String
    public var displayName: String?

    public init(_ address: String, displayName: String? = nil) {
        self.address = address
        self.displayName = displayName
    }

    /// A plausible `local@domain` with no characters that could break a header or an SMTP command.
    /// `Name <address>` (the name may be quoted) or a bare address, as `MAIL_FROM` is written.
    public static func parse(_ text: String) -> MailAddress {
        if let open = text.lastIndex(of: "<"), let close = text.lastIndex(of: ">"), open < close {
            let address = String(text[text.index(after: open)..<close]).trimmingCharacters(in: .whitespaces)
            var name = String(text[..<open]).trimmingCharacters(in: .whitespaces)
            if name.hasPrefix("\""), name.hasSuffix("\""), name.count >= 2 { name = String(name.dropFirst().dropLast()) }
            return MailAddress(address, displayName: name.isEmpty ? nil : name)
        }
        return MailAddress(text.trimmingCharacters(in: .whitespaces))
    }

    public static func isPlausible(_ address: String) -> Bool {
        let parts = address.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), address.count <= 254 else { return false }
        return address.unicodeScalars.allSatisfy { $0.value > 32 && $0.value < 127 && !"<>()[]\\,;:\"".unicodeScalars.contains($0) }
    }

    /// The domain part, used for Message-IDs.
    public var domain: String {
        address.split(separator: "@").last.map(String.init) ?? "localhost"
    }

    /// `Name <address>`, the name as a quoted string or as RFC 2047 encoded words when it is not plain ASCII.
    public var headerValue: String {
        guard let name = displayName, !name.isEmpty else { return address }
        return "\(HeaderEncoding.phrase(name)) <\(address)>"
    }
}
