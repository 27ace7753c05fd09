import AppCore
import Foundation
import Vapor

/// Console sign-in (contract §4.7.1), public and throttled (§2.7, with failures only counted per IP:
/// `RateLimits`); the session's own routes are `AdminSessionController`.
struct AdminLoginController: RouteCollection {
    static var tokenLifetime: Int { AdminSignIn.tokenLifetime }

    func boot(routes: any RoutesBuilder) throws {
        routes.jsonRoute(.POST, "admin", "login", use: login)
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
            throw APIError.tooManyRequests(wait)
        case .failed:
            throw APIError(.unauthorized, "Invalid username or password")
        case .succeeded(let account):
            user = account
        }
        let (token, expiresAt) = try await AdminSignIn.startSession(user, viaConsole: false, request: req)
        return try JSONResponse.make(AdminLoginResponse(token: token, expiresIn: Self.tokenLifetime, expiresAt: expiresAt))
    }
}
