import AppCore
import Fluent
import Foundation
import SQLKit
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
        let row = try await request.db.sql.raw("""
            SELECT s.id, s.admin_user_id FROM ad_admin_sessions s
            JOIN ad_admin_users u ON u.id = s.admin_user_id AND u.token_version = s.token_version
            WHERE s.token_hash = \(bind: Secrets.hash(token)) AND s.revoked_at IS NULL AND s.expires_at > \(bind: request.now)
            """).first()
        guard let row else { throw APIError.invalidAdminToken }
        let caller = AdminCaller(
            sessionID: try row.decode(column: "id", as: UUID.self),
            userID: try row.decode(column: "admin_user_id", as: UUID.self))
        request.setAdminCaller(caller)
        request.loggedSubject = "admin:" + caller.userID.lowercased
        return try await next.respond(to: request)
    }
}
