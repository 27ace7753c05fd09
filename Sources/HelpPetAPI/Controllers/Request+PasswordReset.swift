import AppCore
import Vapor

extension Application {
    private struct PasswordResetPageKey: StorageKey { typealias Value = String }

    /// The path of the console page a reset link opens; the clinic console sets it where it mounts.
    package var passwordResetPagePath: String {
        get { storage[PasswordResetPageKey.self] ?? "/clinic/password-reset/confirm" }
        set { storage[PasswordResetPageKey.self] = newValue }
    }

    /// Where a reset link points: `PUBLIC_BASE_URL` (required in production), else this server's own listening
    /// address. Never the request's Host header: a forged Host would send someone's reset token to another site.
    var passwordResetPageURL: String {
        if let base = core.config.publicBaseURL { return base + passwordResetPagePath }
        // The address the server really bound (`serve --hostname/--port`), else its configured one.
        let configured = http.server.configuration
        let bound = http.server.shared.localAddress
        var host = bound?.ipAddress ?? configured.hostname
        if ["0.0.0.0", "::", ""].contains(host) { host = "localhost" } else if host.contains(":") { host = "[\(host)]" }
        return "http://\(host):\(bound?.port ?? configured.port)" + passwordResetPagePath
    }
}

extension Request {
    /// The forgotten-password service, on this request's database.
    var passwordResets: PasswordResets {
        PasswordResets(
            db: db, ledger: application.core.attempts, hasher: core.passwordHasher, mailFrom: core.config.mail.from,
            metrics: core.metrics, confirmPageURL: application.passwordResetPageURL)
    }
}
