/// One SMTP reply (RFC 5321 §4.2): a three-digit code and its text lines. Multi-line replies use `250-` on every
/// line but the last, which uses `250 `.
public struct SMTPReply: Sendable, Equatable {
    public var code: Int
    public var lines: [String]

    public var text: String { lines.joined(separator: " ") }
    public var isPositive: Bool { (200..<400).contains(code) }

    /// Collects reply lines; `add` returns the reply once its last line arrived.
    public struct Parser: Sendable {
        var code: Int?
        var lines: [String] = []

        public init() {}

        public mutating func add(_ rawLine: String) throws -> SMTPReply? {
            let line = rawLine.hasSuffix("\r") ? String(rawLine.dropLast()) : rawLine
            let chars = Array(line.utf8)
            guard chars.count >= 3, let code = Int(String(decoding: chars[0..<3], as: UTF8.self)), (200...599).contains(code)
            else { throw MailDeliveryError.protocolViolation("malformed SMTP reply line") }
            if let expected = self.code, expected != code {
                throw MailDeliveryError.protocolViolation("SMTP reply lines with different codes")
            }
            let separator: UInt8? = chars.count > 3 ? chars[3] : nil
            guard separator == nil || separator == UInt8(ascii: " ") || separator == UInt8(ascii: "-") else {
                throw MailDeliveryError.protocolViolation("malformed SMTP reply line")
            }
            self.code = code
            lines.append(chars.count > 4 ? String(decoding: chars[4...], as: UTF8.self) : "")
            guard separator != UInt8(ascii: "-") else { return nil }
            defer { self = Parser() }
            return SMTPReply(code: code, lines: lines)
        }
    }
}

/// Why a delivery did not happen, sorted by what the outbox should do about it.
public enum MailDeliveryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A 4yz reply: try again later.
    case transient(code: Int, reason: String)
    /// A 5yz reply: this message will never go through as it is.
    case permanent(code: Int, reason: String)
    /// Connection refused, reset, TLS failure, timeout: try again later.
    case connection(String)
    /// The server broke the protocol: try again later (another attempt may meet a healthy server).
    case protocolViolation(String)
    /// The configuration or the message cannot work (no STARTTLS on a remote server, no AUTH mechanism): a person
    /// must act, retrying will not help.
    case refused(String)

    public var isPermanent: Bool {
        switch self {
        case .permanent, .refused: true
        case .transient, .connection, .protocolViolation: false
        }
    }

    static func classify(_ reply: SMTPReply, during step: String) -> MailDeliveryError {
        let reason = "\(step): \(reply.code) \(reply.text)"
        switch reply.code {
        case 400..<500: return .transient(code: reply.code, reason: reason)
        case 500..<600: return .permanent(code: reply.code, reason: reason)
        default: return .protocolViolation("unexpected reply to \(reason)")
        }
    }

    public var description: String {
        switch self {
        case .transient(_, let reason), .permanent(_, let reason): reason
        case .connection(let text): "connection: \(text)"
        case .protocolViolation(let text): "protocol: \(text)"
        case .refused(let text): text
        }
    }
}
