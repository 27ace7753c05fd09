import AppCore
import Fluent
import Foundation
import Vapor

/// Authenticates `Authorization: Bearer <jwt>`; every failure is 401 with `WWW-Authenticate: Bearer`.
struct BearerAuthMiddleware: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        guard let header = request.headers.first(name: .authorization) else {
            throw APIError.unauthorized("Not authenticated")
        }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            throw APIError.unauthorized("Not authenticated")
        }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        guard !token.isEmpty else { throw APIError.unauthorized("Not authenticated") }

        let invalid = APIError.unauthorized("Could not validate credentials")
        guard let verified = await request.core.tokens.verify(token, now: request.core.clock.now()), let userID = UUID(canonical: verified.subject)
        else { throw invalid }
        // From the process-local cache (at most one second old, ReadPathCaches): no query on most requests.
        guard let identity = try await request.readPathCaches.identity(of: userID, on: request.db) else { throw invalid }
        // A deactivated user's tokens say so (§2.2), although the deactivation also moved the version on.
        guard identity.is_active else { throw APIError.unauthorized("Inactive user") }
        // Every password, role or activation change increments the version: older tokens are void (§2.1).
        guard verified.version == identity.token_version else { throw invalid }

        let role = identity.userRole
        request.setCaller(Caller(
            id: userID, role: role, practiceID: identity.practice_id,
            petOwnerID: role == .petOwner ? identity.linked_pet_owner_id : nil))
        request.loggedSubject = userID.lowercased
        return try await next.respond(to: request)
    }
}
