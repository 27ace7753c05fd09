import AppCore
import Vapor

extension Application {
    private struct PasswordResetPageKey: StorageKey { typealias Value = String }

    /// The path of the console page a reset link opens; the clinic console sets it where it mounts.
    package var passwordResetPagePath: String {
        get { storage[PasswordResetPageKey.self] ?? "/clinic/password-reset/confirm" }
        set { storage[PasswordResetPageKey.self] = newValue }
    }

    /// Where a reset link points (never the request's Host header).
    var passwordResetPageURL: String { linkURL(path: passwordResetPagePath) }
}

extension Request {
    /// The forgotten-password service, on this request's database.
    var passwordResets: PasswordResets {
        PasswordResets(
            db: db, ledger: application.core.attempts, hasher: core.passwordHasher, mailFrom: core.config.mail.from,
            metrics: core.metrics, confirmPageURL: application.passwordResetPageURL)
    }
}
