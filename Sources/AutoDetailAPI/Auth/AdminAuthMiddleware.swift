import AppCore
import Fluent
import Foundation
import Vapor

/// The admin token check (contract §2.6): only `Authorization: Bearer <token>`; missing header → `Missing admin
/// token`; anything that is not a live token (wrong format, an API key, expired, revoked) → `Invalid or expired`.
struct AdminAuthMiddleware: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        guard let authorization = request.headers.first(name: .authorization) else { throw APIError.missingAdminToken }
        let parts = authorization.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else { throw APIError.invalidAdminToken }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        guard Secrets.isAdminToken(token) else { throw APIError.invalidAdminToken }
        guard let caller = try await request.adminSessions.liveSession(tokenHash: Secrets.hash(token), now: request.now)
        else { throw APIError.invalidAdminToken }
        request.setAdminCaller(caller)
        request.loggedSubject = "admin:" + caller.userID.lowercased
        return try await next.respond(to: request)
    }
}
