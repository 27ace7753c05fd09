import Foundation

/// Where a rendered message goes. `deliver` returns a short receipt for the outbox; it throws
/// `MailDeliveryError` (anything else counts as a transient failure).
public protocol MailTransport: Sendable {
    /// For the startup log: where mail goes, without credentials.
    var destination: String { get }
    func deliver(_ rendered: String, messageID: String, from sender: String, to recipients: [String]) async throws -> String
}

/// The production transport: one SMTP conversation per message.
public struct SMTPMailTransport: MailTransport {
    public let client: SMTPClient

    public init(client: SMTPClient) { self.client = client }

    public var destination: String { "SMTP \(client.configuration.redactedDescription)" }

    public func deliver(_ rendered: String, messageID: String, from sender: String, to recipients: [String]) async throws -> String {
        try await client.send(rendered, from: sender, to: recipients)
    }
}

/// The embedded default: each message becomes `<directory>/<message-id>.eml`, which any mail program opens.
/// Writing the same Message-ID twice overwrites the same file, so a repeated delivery leaves one file.
public struct FileMailTransport: MailTransport {
    public let directory: URL

    public init(directory: URL) { self.directory = directory }

    public var destination: String { "files under \(directory.path)" }

    public func deliver(_ rendered: String, messageID: String, from sender: String, to recipients: [String]) async throws -> String {
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let url = directory.appendingPathComponent(Self.fileName(messageID: messageID))
            try Data(rendered.utf8).write(to: url, options: .atomic)
            return url.path
        } catch {
            throw MailDeliveryError.connection("cannot write the .eml file: \(error.localizedDescription)")
        }
    }

    /// Only characters safe in any file name.
    static func fileName(messageID: String) -> String {
        let safe = messageID.unicodeScalars.map { CharacterSet.alphanumerics.contains($0) || "-_.".unicodeScalars.contains($0) ? Character($0) : "_" }
        return String(safe) + ".eml"
    }
}
