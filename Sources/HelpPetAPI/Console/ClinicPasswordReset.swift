import AppCore
import Foundation
import Vapor

/// The clinic console's forgotten-password pages call the API's own service, so both share rules, limits and
/// messages (`POST /auth/password-reset…`).
package enum ClinicPasswordReset {
    package enum Requested: Sendable {
        case sent(message: String)
        case throttled(retryAfter: Int, message: String)
    }

    package enum Confirmed: Sendable {
        case changed(message: String)
        case refused(message: String)
    }

    package static func request(email: String, request: Request) async throws -> Requested {
        switch try await request.passwordResets.request(
            email: email, ip: request.core.clientAddress.ip(of: request), now: request.core.clock.now())
        {
        case .accepted: return .sent(message: PasswordResets.requestedMessage)
        case .throttled(let wait):
            return .throttled(retryAfter: wait, message: PasswordResets.throttledMessage(wait))
        }
    }

    package static func confirm(token: String, newPassword: String, request: Request) async throws -> Confirmed {
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
