import Foundation

/// Token-based APNs settings. Push is off unless the key, key id, team id and topic are all set; a partial
/// configuration is an error at start rather than a silently silent server.
public struct APNsConfiguration: Sendable, Equatable {
    public enum Environment: String, Sendable {
        case sandbox
        case production

        public var baseURL: String {
            switch self {
            case .sandbox: "https://api.sandbox.push.apple.com"
            case .production: "https://api.push.apple.com"
            }
        }
    }

    public struct Invalid: Error, CustomStringConvertible, Equatable {
        public var description: String
    }

    /// The `.p8` key's PEM text (PKCS#8, P-256).
    public var privateKeyPEM: String
    public var keyID: String
    public var teamID: String
    /// The app's bundle id (`apns-topic`).
    public var topic: String
    public var environment: Environment
    /// Where requests go: the environment's host unless `APNS_BASE_URL` overrides it (tests' stand-in).
    public var baseURL: String
    /// `APNS_TLS_CA_FILE`: a PEM bundle trusted instead of the system's roots (a test stand-in's self-signed
    /// certificate). Certificates are always verified.
    public var trustedCAFile: String?

    public init(
        privateKeyPEM: String, keyID: String, teamID: String, topic: String, environment: Environment = .sandbox,
        baseURL: String? = nil, trustedCAFile: String? = nil
    ) {
        self.privateKeyPEM = privateKeyPEM
        self.keyID = keyID
        self.teamID = teamID
        self.topic = topic
        self.environment = environment
        self.baseURL = baseURL ?? environment.baseURL
        self.trustedCAFile = trustedCAFile
    }

    static let required = ["APNS_KEY_PATH", "APNS_KEY_ID", "APNS_TEAM_ID", "APNS_TOPIC"]

    /// nil when none of the required variables is set (push off); throws on a partial or unreadable configuration.
    public static func fromEnvironment(_ env: [String: String]) throws -> APNsConfiguration? {
        func value(_ name: String) -> String? {
            guard let raw = env[name]?.trimmingCharacters(in: .whitespaces), !raw.isEmpty else { return nil }
            return raw
        }
        let present = required.filter { value($0) != nil }
        if present.isEmpty { return nil }
        let missing = required.filter { value($0) == nil }
        guard missing.isEmpty else {
            throw Invalid(description: "push needs \(required.joined(separator: ", ")); missing: \(missing.joined(separator: ", "))")
        }
        let environment: Environment
        switch value("APNS_ENVIRONMENT") ?? "sandbox" {
        case "sandbox": environment = .sandbox
        case "production": environment = .production
        case let other: throw Invalid(description: "APNS_ENVIRONMENT must be sandbox or production, not '\(other)'")
        }
        let keyPath = value("APNS_KEY_PATH")!
        guard let data = FileManager.default.contents(atPath: keyPath), let pem = String(data: data, encoding: .utf8) else {
            throw Invalid(description: "APNS_KEY_PATH '\(keyPath)' cannot be read")
        }
        let caFile = value("APNS_TLS_CA_FILE")
        if let caFile, !FileManager.default.isReadableFile(atPath: caFile) {
            throw Invalid(description: "APNS_TLS_CA_FILE '\(caFile)' cannot be read")
        }
        var baseURL = value("APNS_BASE_URL")
        if let url = baseURL {
            guard let parsed = URL(string: url), parsed.scheme == "https", parsed.host != nil else {
                throw Invalid(description: "APNS_BASE_URL must be an https URL, not '\(url)'")
            }
            baseURL = url.hasSuffix("/") ? String(url.dropLast()) : url
        }
        let configuration = APNsConfiguration(
            privateKeyPEM: pem, keyID: value("APNS_KEY_ID")!, teamID: value("APNS_TEAM_ID")!,
            topic: value("APNS_TOPIC")!, environment: environment, baseURL: baseURL, trustedCAFile: caFile)
        // Fail at start, not at the first push.
        do {
            _ = try APNsProviderToken.Signer(configuration: configuration)
        } catch {
            throw Invalid(description: "APNS_KEY_PATH '\(keyPath)' is not a PKCS#8 P-256 private key (.p8)")
        }
        return configuration
    }
}
