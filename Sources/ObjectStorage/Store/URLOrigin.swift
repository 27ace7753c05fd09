import Foundation

/// The scheme, `host[:port]` and optional path prefix of a base URL such as `PUBLIC_BASE_URL` or `S3_ENDPOINT`.
/// The port is kept only when it is not the scheme's default, because that is what clients send as `Host` and
/// therefore what gets signed.
public struct URLOrigin: Sendable, Equatable {
    public var scheme: String
    /// `hostname[:port]`; IPv6 literals in brackets.
    public var host: String
    /// The bare host name, without port or brackets.
    public var hostname: String
    public var port: Int?
    /// `""` or a decoded path such as `/s3` (no trailing slash).
    public var pathPrefix: String

    public init?(_ text: String) {
        guard let components = URLComponents(string: text.trimmingCharacters(in: .whitespaces)),
              let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let hostname = components.host, !hostname.isEmpty
        else { return nil }
        self.init(scheme: scheme, hostname: hostname, port: components.port, pathPrefix: components.path)
    }

    public init(scheme: String, hostname: String, port: Int?, pathPrefix: String = "") {
        self.scheme = scheme
        self.hostname = hostname
        let defaultPort = scheme == "https" ? 443 : 80
        self.port = port == defaultPort ? nil : port
        let bracketed = hostname.contains(":") && !hostname.hasPrefix("[") ? "[\(hostname)]" : hostname
        self.host = self.port.map { "\(bracketed):\($0)" } ?? bracketed
        var prefix = pathPrefix
        while prefix.hasSuffix("/") { prefix.removeLast() }
        self.pathPrefix = prefix
    }

    /// `scheme://host[:port]` plus the path prefix.
    public var base: String { "\(scheme)://\(host)\(AWSURIEncoding.encodePath(pathPrefix))" }

    /// The same origin with `label.` prepended to the host (virtual-hosted bucket addressing).
    public func prependingHostLabel(_ label: String) -> URLOrigin {
        URLOrigin(scheme: scheme, hostname: "\(label).\(hostname)", port: port, pathPrefix: pathPrefix)
    }
}
