import Foundation

/// AutoDetail Hub's own settings (its contract §1.13; shared names from ARCHITECTURE.md).
public struct AutoDetailSettings: Sendable {
    /// `ADMIN_PASSWORD`: the password of the console user `admin` when it is first created (never printed).
    /// Unset in development → generated and printed once; required in production (checked when the product starts).
    public var adminPassword: String?
    /// `PING_MESSAGE`: the body of `GET /api/ping` (`{"message": ...}`).
    public var pingMessage: String

    public init(adminPassword: String?, pingMessage: String) {
        self.adminPassword = adminPassword
        self.pingMessage = pingMessage
    }

    static func load(env: EnvironmentReader) throws -> AutoDetailSettings {
        // The password is taken verbatim (passwords are never trimmed); only an empty value counts as unset.
        let password = env.values["ADMIN_PASSWORD"].flatMap { $0.isEmpty ? nil : $0 }
        if let password, password.count < 12 || password.count > 128 {
            throw ConfigurationError("ADMIN_PASSWORD must be 12-128 characters")
        }
        return AutoDetailSettings(adminPassword: password, pingMessage: env.string("PING_MESSAGE") ?? "pong")
    }
}
