import AppCore
import Foundation
import Vapor

/// A signed-in console session (contract §4.7.1): logout and password change. Signing in is `AdminLoginController`.
struct AdminSessionController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.on(.POST, "logout", use: logout)
        routes.jsonRoute(.POST, "password", use: changePassword)
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
