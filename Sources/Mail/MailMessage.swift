import Foundation

/// A calendar part of a message: an RFC 5545 object and the iTIP method it carries (`REQUEST`, `CANCEL`).
public struct CalendarAttachment: Sendable, Equatable {
    public var method: String
    public var content: String
    public var filename: String

    public init(method: String, content: String, filename: String = "invite.ics") {
        self.method = method
        self.content = content
        self.filename = filename
    }
}

/// One email: headers, a plain-text and an HTML body, and an optional calendar attachment. `render()` gives the
/// RFC 5322 / MIME text with CRLF line ends, ready for SMTP's DATA or an `.eml` file.
public struct MailMessage: Sendable, Equatable {
    public var from: MailAddress
    public var to: [MailAddress]
    public var subject: String
    public var text: String
    public var html: String
    public var calendar: CalendarAttachment?
    public var date: Date
    /// Without angle brackets; the idempotency record of the outbox.
    public var messageID: String

    public init(
        from: MailAddress, to: [MailAddress], subject: String, text: String, html: String,
        calendar: CalendarAttachment? = nil, date: Date, messageID: String
    ) {
        self.from = from
        self.to = to
        self.subject = subject
        self.text = text
        self.html = html
        self.calendar = calendar
        self.date = date
        self.messageID = messageID
    }

    /// A new Message-ID on the sender's domain: random, so two messages never share one.
    public static func newMessageID(domain: String) -> String {
        "\(UUID().uuidString.lowercased())@\(domain)"
    }

    public func render() -> String {
        // Boundaries are derived from the Message-ID: unique per message, and never inside a QP or base64 body
        // (those never contain "==_").
        let tag = messageID.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) }.prefix(24)
        let mixed = "==_mixed_\(String(String.UnicodeScalarView(tag)))"
        let alternative = "==_alt_\(String(String.UnicodeScalarView(tag)))"
        var lines: [String] = [
            "Date: \(Self.rfc5322Date(date))",
            "From: \(from.headerValue)",
            "To: \(to.map(\.headerValue).joined(separator: ",\r\n "))",
            "Subject: \(HeaderEncoding.unstructured(subject))",
            "Message-ID: <\(messageID)>",
            "MIME-Version: 1.0",
        ]
        let alternativePart = [
            "--\(alternative)",
            "Content-Type: text/plain; charset=UTF-8",
            "Content-Transfer-Encoding: quoted-printable",
            "",
            BodyEncoding.quotedPrintable(text),
            "--\(alternative)",
            "Content-Type: text/html; charset=UTF-8",
            "Content-Transfer-Encoding: quoted-printable",
            "",
            BodyEncoding.quotedPrintable(html),
            "--\(alternative)--",
        ]
        if let calendar {
            lines += [
                "Content-Type: multipart/mixed; boundary=\"\(mixed)\"",
                "",
                "This is a multi-part message in MIME format.",
                "--\(mixed)",
                "Content-Type: multipart/alternative; boundary=\"\(alternative)\"",
                "",
            ]
            lines += alternativePart
            lines += [
                "--\(mixed)",
                "Content-Type: text/calendar; charset=UTF-8; method=\(calendar.method); name=\"\(calendar.filename)\"",
                "Content-Disposition: attachment; filename=\"\(calendar.filename)\"",
                "Content-Transfer-Encoding: base64",
                "",
                BodyEncoding.base64(Data(calendar.content.utf8)),
                "--\(mixed)--",
            ]
        } else {
            lines += ["Content-Type: multipart/alternative; boundary=\"\(alternative)\"", "", "This is a multi-part message in MIME format."]
            lines += alternativePart
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    /// RFC 5322 `date-time` in UTC, English names whatever the process locale: `Fri, 27 Nov 2026 19:09:34 +0000`.
    public static func rfc5322Date(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss '+0000'"
        return formatter.string(from: date)
    }
}
