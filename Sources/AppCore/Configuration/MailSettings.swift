import Foundation

/// Outgoing email (ARCHITECTURE.md's table; docs/notifications.md). The SMTP URL is kept as text here and parsed
/// by the Mail library when the product starts (AppCore does not know SMTP); a bad URL still stops the start.
public struct MailSettings: Sendable {
    /// `SMTP_URL`: nil → `.eml` files under `directory`.
    public var smtpURL: String?
    /// `MAIL_FROM`: `address` or `Name <address>`.
    public var from: String
    /// `SMTP_TLS_CA_FILE`: a PEM bundle trusted instead of the system roots (a private CA, a test's certificate).
    public var tlsCAFile: String?
    /// `MAIL_MAX_ATTEMPTS`: deliveries tried before a message is dead-lettered (`failed`).
    public var maxAttempts: Int
    /// `MAIL_RETRY_BASE_SECONDS` / `MAIL_RETRY_MAX_SECONDS`: backoff after a transient failure doubles from the base
    /// up to the cap.
    public var retryBaseSeconds: Double
    public var retryMaxSeconds: Double
    /// `MAIL_POLL_SECONDS`: how often an idle worker looks for due messages.
    public var pollSeconds: Double
    /// `MAIL_REMINDER_SCAN_SECONDS`: how often a worker looks for appointments whose reminder is due.
    public var reminderScanSeconds: Double
    /// `MAIL_LEASE_SECONDS`: how long a claimed message is its worker's before another may send it (a worker killed
    /// mid-send leaves its message this long). Longer than one SMTP conversation can take; short only in drills.
    public var leaseSeconds: Int = 300
    /// `DATA_DIR/mail`.
    public var directory: URL

    public static func load(env: EnvironmentReader, dataDirectory: URL, production: Bool) throws -> MailSettings {
        let url = env.string("SMTP_URL")
        let from = env.string("MAIL_FROM")
        if production, url != nil, from == nil {
            throw ConfigurationError("MAIL_FROM is required when SMTP_URL is set in production")
        }
        let settings = MailSettings(
            smtpURL: url, from: from ?? "HelpPet <no-reply@helppet.localhost>",
            tlsCAFile: env.string("SMTP_TLS_CA_FILE"),
            maxAttempts: try env.int("MAIL_MAX_ATTEMPTS", default: 8, range: 1...100),
            retryBaseSeconds: try env.double("MAIL_RETRY_BASE_SECONDS", default: 30, range: 0.1...86_400),
            retryMaxSeconds: try env.double("MAIL_RETRY_MAX_SECONDS", default: 3600, range: 0.1...604_800),
            pollSeconds: try env.double("MAIL_POLL_SECONDS", default: 2, range: 0.05...3600),
            reminderScanSeconds: try env.double("MAIL_REMINDER_SCAN_SECONDS", default: 60, range: 0.05...86_400),
            leaseSeconds: try env.int("MAIL_LEASE_SECONDS", default: 300, range: 2...86_400),
            directory: dataDirectory.appendingPathComponent("mail", isDirectory: true))
        return settings
    }

    public static func embedded(dataDirectory: URL) -> MailSettings {
        MailSettings(
            smtpURL: nil, from: "HelpPet <no-reply@helppet.localhost>", tlsCAFile: nil, maxAttempts: 8,
            retryBaseSeconds: 30, retryMaxSeconds: 3600, pollSeconds: 2, reminderScanSeconds: 60,
            directory: dataDirectory.appendingPathComponent("mail", isDirectory: true))
    }
}
