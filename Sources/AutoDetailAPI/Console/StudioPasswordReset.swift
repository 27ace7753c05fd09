import AppCore
import Foundation
import Vapor

/// The studio console's forgotten-password pages call this, which calls `StudioPasswordResets` with the request's
/// values (docs/login-and-sessions.md, "Studio").
package enum StudioPasswordReset {
    package static func request(email: String, request: Request) async throws -> PasswordResetRequested {
        switch try await request.studioPasswordResets.request(
            email: email, ip: request.core.clientAddress.ip(of: request), now: request.core.clock.now())
        {
        case .accepted: return .sent(message: StudioPasswordResets.requestedMessage)
        case .throttled(let wait): return .throttled(retryAfter: wait, message: StudioPasswordResets.throttledMessage(wait))
        }
    }

    package static func confirm(token: String, newPassword: String, request: Request) async throws -> PasswordResetConfirmed {
        switch try await request.studioPasswordResets.confirm(token: token, newPassword: newPassword, now: request.now) {
        case .changed: return .changed(message: StudioPasswordResets.changedMessage)
        case .refused(let reason): return .refused(message: reason)
        }
    }

    /// Where the console mounted the page a link opens.
    package static func setConfirmPagePath(_ path: String, on app: Application) {
        app.storage[ConfirmPageKey.self] = path
    }

    fileprivate struct ConfirmPageKey: StorageKey { typealias Value = String }
}

extension Request {
    /// The studio's forgotten-password service, on this request's database.
    var studioPasswordResets: StudioPasswordResets {
        let path = application.storage[StudioPasswordReset.ConfirmPageKey.self] ?? "/studio/password-reset/confirm"
        return StudioPasswordResets(
            db: db, ledger: application.core.attempts, hasher: core.passwordHasher, mailFrom: core.config.mail.from,
            metrics: core.metrics, confirmPageURL: application.linkURL(path: path))
    }
}
