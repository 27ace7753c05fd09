import Foundation

/// `SMTP_URL` parsed: `smtp://user:pass@host:587` (STARTTLS required unless the host is a loopback address) or
/// `smtps://user:pass@host:465` (TLS from the first byte). User and password are percent-decoded.
public struct SMTPConfiguration: Sendable, Equatable {
    public enum Security: Sendable, Equatable {
        case startTLS
        case implicitTLS
    }

    public var host: String
    public var port: Int
    public var security: Security
    public var username: String?
    public var password: String?
    /// `SMTP_TLS_CA_FILE`: a PEM bundle trusted instead of the system's roots (a private CA or a test's self-signed
    /// certificate). Certificates are always verified, host name included.
    public var trustedCAFile: String?
    public var connectTimeout: TimeAmountSeconds
    public var commandTimeout: TimeAmountSeconds
    /// The name given in EHLO.
    public var heloName: String

    public typealias TimeAmountSeconds = Double

    public init(
        host: String, port: Int, security: Security, username: String? = nil, password: String? = nil,
        trustedCAFile: String? = nil, connectTimeout: Double = 10, commandTimeout: Double = 30,
        heloName: String = "localhost"
    ) {
        self.host = host
        self.port = port
        self.security = security
        self.username = username
        self.password = password
        self.trustedCAFile = trustedCAFile
        self.connectTimeout = connectTimeout
        self.commandTimeout = commandTimeout
        self.heloName = heloName
    }

    public struct Invalid: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// Parses `SMTP_URL`; the error text never repeats the URL (it holds a password).
    public static func parse(_ text: String, trustedCAFile: String? = nil) throws -> SMTPConfiguration {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased(),
            let host = components.host, !host.isEmpty
        else { throw Invalid(description: "SMTP_URL must look like smtp://user:pass@host:587 or smtps://user:pass@host:465") }
        let security: Security
        switch scheme {
        case "smtp": security = .startTLS
        case "smtps": security = .implicitTLS
        default: throw Invalid(description: "SMTP_URL must start with smtp:// or smtps://")
        }
        let port = components.port ?? (security == .implicitTLS ? 465 : 587)
        guard (1...65535).contains(port) else { throw Invalid(description: "SMTP_URL has an invalid port") }
        let user = components.percentEncodedUser.flatMap { $0.removingPercentEncoding }
        let password = components.percentEncodedPassword.flatMap { $0.removingPercentEncoding }
        if password != nil && (user ?? "").isEmpty {
            throw Invalid(description: "SMTP_URL has a password but no user")
        }
        if let trustedCAFile, !FileManager.default.isReadableFile(atPath: trustedCAFile) {
            throw Invalid(description: "SMTP_TLS_CA_FILE '\(trustedCAFile)' cannot be read")
        }
        let bareHost = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        return SMTPConfiguration(
            host: bareHost, port: port, security: security, username: user.flatMap { $0.isEmpty ? nil : $0 },
            password: password, trustedCAFile: trustedCAFile)
    }

    /// Plain SMTP (no TLS) is allowed only to these: the message never leaves the machine.
    public var isLoopback: Bool {
        let lower = host.lowercased()
        return lower == "localhost" || lower == "::1" || lower.hasPrefix("127.")
    }

    /// Where mail goes, without credentials: for the startup log.
    public var redactedDescription: String {
        "\(security == .implicitTLS ? "smtps" : "smtp")://\(username == nil ? "" : "***@")\(host):\(port)"
    }
}
