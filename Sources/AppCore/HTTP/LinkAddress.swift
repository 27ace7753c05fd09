import Vapor

extension Application {
    /// The absolute URL of `path` on this server for links sent by email: `PUBLIC_BASE_URL` (required in
    /// production), else the address the server really bound (`serve --hostname/--port`), else its configured one.
    /// Never the request's Host header: a forged Host would send someone's reset token to another site.
    public func linkURL(path: String) -> String {
        if let base = core.config.publicBaseURL { return base + path }
        let configured = http.server.configuration
        let bound = http.server.shared.localAddress
        var host = bound?.ipAddress ?? configured.hostname
        if ["0.0.0.0", "::", ""].contains(host) { host = "localhost" } else if host.contains(":") { host = "[\(host)]" }
        return "http://\(host):\(bound?.port ?? configured.port)" + path
    }
}
