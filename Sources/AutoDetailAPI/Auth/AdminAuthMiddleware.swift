import AppCore
import Fluent
import Foundation
import Vapor

/// The admin token check (contract §2.6): only `Authorization: Bearer <token>`; missing header → `Missing admin
/// token`; anything that is not a live token (wrong format, an API key, expired, revoked) → `Invalid or expired`.
///
/// Without an `Authorization` header, the studio console's session cookie (which holds an admin token) is accepted
/// instead, but only with the session's CSRF token in `X-CSRF-Token` (403 otherwise): the console's scripts write
/// through this API, so a console action and an API call follow the same rules and messages (docs/web-console.md).
struct AdminAuthMiddleware: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        guard let authorization = request.headers.first(name: .authorization) else {
            if let cookie = request.cookies[StudioSession.cookieName]?.string, !cookie.isEmpty {
                try await StudioSession.authenticateAPICall(request, cookieToken: cookie)
                return try await next.respond(to: request)
            }
            throw APIError.missingAdminToken
        }
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
