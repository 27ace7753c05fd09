import AppCore
import Foundation
import Vapor

/// Console sessions (contract §4.7.1): login (rate-limited, §2.7), logout, password change.
struct AdminSessionController {
    static var tokenLifetime: Int { AdminSignIn.tokenLifetime }

    let limits: RateLimits

    func boot(public api: any RoutesBuilder, admin: any RoutesBuilder) {
        api.grouped(RateLimitMiddleware(rule: RateLimits.loginPerIP, ledger: limits.ledger))
            .jsonRoute(.POST, "admin", "login", use: login)
        admin.on(.POST, "logout", use: logout)
        admin.jsonRoute(.POST, "password", use: changePassword)
    }

    @Sendable func login(req: Request) async throws -> Response {
        let body = try req.autodetailBody()
        try body.requireAll(["username", "password"])
        guard case .string(let rawUsername)? = body.object["username"] else {
            throw APIError.invalidField("username", "must be a string")
        }
        let username = rawUsername.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        let password = try body.password("password", max: 128)!

        let user: AdminUserRecord
        switch try await AdminSignIn.check(username: username, password: password, request: req) {
        case .refused(let wait):
            try await req.countedRateLimit?.forget(on: req)
            throw APIError.tooManyRequests(wait)
        case .failed:
            throw APIError(.unauthorized, "Invalid username or password")
        case .succeeded(let account):
            user = account
        }
        let (token, expiresAt) = try await AdminSignIn.startSession(user, request: req)
        return try JSONResponse.make(AdminLoginResponse(token: token, expiresIn: Self.tokenLifetime, expiresAt: expiresAt))
    }

    @Sendable func logout(req: Request) async throws -> Response {
        let caller = try req.adminCaller
        try await req.adminSessions.endSession(caller.sessionID, now: req.now)
        return Response(status: .noContent)
    }

    /// New password 12–128 characters and different from the current one; every other session is revoked, and the
    /// token version moves on, which also voids a session that a concurrent login is minting right now.
    @Sendable func changePassword(req: Request) async throws -> Response {
        let caller = try req.adminCaller
        let body = try req.autodetailBody()
        try body.requireAll(["currentPassword", "newPassword"])
        let current = try body.password("currentPassword", max: 128)!
        guard case .string(let new)? = body.object["newPassword"] else {
            throw APIError.invalidField("newPassword", "must be a string")
        }
        guard (12...128).contains(new.count) else { throw APIError.invalidField("newPassword", "must be 12-128 characters") }
        guard new != current else {
            throw APIError.invalidField("newPassword", "must differ from the current password")
        }
        guard let user = try await req.adminSessions.user(caller.userID) else { throw APIError.invalidAdminToken }
        guard try await req.core.passwordHasher.verify(current, against: user.passwordHash) else {
            throw APIError.badRequest("Current password is incorrect")
        }
        let hash = try await req.core.passwordHasher.hash(new)
        try await req.adminSessions.changePassword(caller, newHash: hash, now: req.now)
        return Response(status: .noContent)
    }
}
