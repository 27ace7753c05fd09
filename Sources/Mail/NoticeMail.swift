import Foundation

/// A short account notice (a reset link, "your password was changed"): a greeting, paragraphs, an optional link on
/// its own line, a closing and the product's name, as plain text and the same as HTML. No attachment.
public struct NoticeMail: Sendable {
    public var productName: String
    public var subject: String
    public var greeting: String
    public var paragraphs: [String]
    public var link: String?
    public var closing: String

    public init(productName: String, subject: String, greeting: String, paragraphs: [String], link: String?, closing: String) {
        self.productName = productName
        self.subject = subject
        self.greeting = greeting
        self.paragraphs = paragraphs
        self.link = link
        self.closing = closing
    }

    /// The message from `sender`'s address under the product's name, with a new Message-ID.
    public func message(to recipient: MailAddress, sender: MailAddress, now: Date) -> MailMessage {
        let text = ([greeting, ""] + paragraphs.flatMap { [$0, ""] } + (link.map { [$0, ""] } ?? [])
            + [closing, "", productName]).joined(separator: "\n")
        let linkHTML = link.map { "<p><a href=\"\(Self.html($0))\">\(Self.html($0))</a></p>" } ?? ""
        let html = """
            <!DOCTYPE html>
            <html><head><meta charset="utf-8"><title>\(Self.html(subject))</title></head>
            <body><p>\(Self.html(greeting))</p>
            \(paragraphs.map { "<p>\(Self.html($0))</p>" }.joined(separator: "\n"))
            \(linkHTML)
            <p>\(Self.html(closing))</p>
            <p>\(Self.html(productName))</p></body></html>
            """
        return MailMessage(
            from: MailAddress(sender.address, displayName: productName), to: [recipient], subject: subject,
            text: text, html: html, date: now, messageID: MailMessage.newMessageID(domain: sender.domain))
    }

    /// Text escaped for HTML content and attribute values.
    public static func html(_ text: some StringProtocol) -> String {
        var out = ""
        for c in text {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(c)
            }
        }
        return out
    }
}
