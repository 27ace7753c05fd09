import Foundation

/// Push notifications over APNs (docs/notifications.md, Push). The `APNS_*` values are kept as text here and checked
/// by the Push library when the product starts (AppCore does not know APNs); a partial or broken configuration still
/// stops the start.
public struct PushSettings: Sendable {
    /// `APNS_KEY_PATH`, `APNS_KEY_ID`, `APNS_TEAM_ID`, `APNS_TOPIC`, `APNS_ENVIRONMENT`, `APNS_BASE_URL`,
    /// `APNS_TLS_CA_FILE` as set (empty: push off).
    public var apns: [String: String]
    /// `PUSH_MAX_ATTEMPTS`: delivery runs tried before a notification is dead-lettered (`failed`).
    public var maxAttempts: Int
    /// `PUSH_RETRY_BASE_SECONDS` / `PUSH_RETRY_MAX_SECONDS`: backoff after 429, 5xx or a connection failure doubles
    /// from the base up to the cap.
    public var retryBaseSeconds: Double
    public var retryMaxSeconds: Double
    /// `PUSH_POLL_SECONDS`: how often an idle worker looks for due notifications.
    public var pollSeconds: Double
    /// `PUSH_REMINDER_MINUTES`: how long before an appointment its vet's phone is reminded of it (0: never).
    public var reminderMinutes: Int = 15
    /// `PUSH_REMINDER_SCAN_SECONDS`: how often a worker looks for appointments whose vet reminder is due.
    public var reminderScanSeconds: Double = 30

    static let apnsNames = [
        "APNS_KEY_PATH", "APNS_KEY_ID", "APNS_TEAM_ID", "APNS_TOPIC", "APNS_ENVIRONMENT", "APNS_BASE_URL", "APNS_TLS_CA_FILE",
    ]

    public static func load(env: EnvironmentReader) throws -> PushSettings {
        var apns: [String: String] = [:]
        for name in apnsNames { apns[name] = env.string(name) }
        return PushSettings(
            apns: apns,
            maxAttempts: try env.int("PUSH_MAX_ATTEMPTS", default: 8, range: 1...100),
            retryBaseSeconds: try env.double("PUSH_RETRY_BASE_SECONDS", default: 30, range: 0.1...86_400),
            retryMaxSeconds: try env.double("PUSH_RETRY_MAX_SECONDS", default: 3600, range: 0.1...604_800),
            pollSeconds: try env.double("PUSH_POLL_SECONDS", default: 2, range: 0.05...3600),
            reminderMinutes: try env.int("PUSH_REMINDER_MINUTES", default: 15, range: 0...1440),
            reminderScanSeconds: try env.double("PUSH_REMINDER_SCAN_SECONDS", default: 30, range: 0.05...3600))
    }

    public static let off = PushSettings(apns: [:], maxAttempts: 8, retryBaseSeconds: 30, retryMaxSeconds: 3600, pollSeconds: 2)
}
