import AppCore
import Foundation
import Vapor

/// `POST /auth/password-reset {email}` and `POST /auth/password-reset/confirm {token, new_password}`, public
/// (docs/login-and-sessions.md, "Forgotten password").
struct PasswordResetController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.post("auth", "password-reset", use: requestLink)
        routes.post("auth", "password-reset", "confirm", use: confirm)
    }

    /// 202 with the same message whether or not the address has an account; 429 past the limits.
    @Sendable func requestLink(req: Request) async throws -> Response {
        let fields = try req.jsonObject()
        let email = try fields.requiredString("email", max: 254)
        switch try await req.passwordResets.request(
            email: email, ip: req.core.clientAddress.ip(of: req), now: req.core.clock.now())
        {
        case .throttled(let wait):
            throw APIError.tooManyRequests(PasswordResets.throttledMessage(wait), retryAfter: wait)
        case .accepted:
            return try JSONResponse.make(PasswordResetResponse(message: PasswordResets.requestedMessage), status: .accepted)
        }
    }

    @Sendable func confirm(req: Request) async throws -> Response {
        let fields = try req.jsonObject()
        let token = try fields.requiredString("token", trim: false, max: 128)
        let password = try fields.requiredString("new_password", trim: false, max: 1024)
        let userID = try await req.passwordResets.confirm(token: token, newPassword: password, now: req.now)
        // After the commit: this process's next request sees the new token version; other nodes within a second.
        req.readPathCaches.identities.invalidate(userID)
        return try JSONResponse.make(PasswordResetResponse(message: PasswordResets.changedMessage))
    }
}
