import AppCore
import Foundation
import Vapor

/// The clinic console's forgotten-password pages call the API's own service, so both share rules, limits and
/// messages (`POST /auth/password-reset…`).
package enum ClinicPasswordReset {
    package static func request(email: String, request: Request) async throws -> PasswordResetRequested {
        switch try await request.passwordResets.request(
            email: email, ip: request.core.clientAddress.ip(of: request), now: request.core.clock.now())
        {
        case .accepted: return .sent(message: PasswordResets.requestedMessage)
        case .throttled(let wait):
            return .throttled(retryAfter: wait, message: PasswordResets.throttledMessage(wait))
        }
    }

    package static func confirm(token: String, newPassword: String, request: Request) async throws -> PasswordResetConfirmed {
        do {
            let userID = try await request.passwordResets.confirm(token: token, newPassword: newPassword, now: request.now)
            request.readPathCaches.identities.invalidate(userID)
            return .changed(message: PasswordResets.changedMessage)
        } catch let error as APIError where error.status == .badRequest {
            return .refused(message: error.message)
        }
    }

    /// Where the console mounted the page a link opens.
    package static func setConfirmPagePath(_ path: String, on app: Application) {
        app.passwordResetPagePath = path
    }
}
