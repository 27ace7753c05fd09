import AppCore
import Fluent
import SQLKit
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
        // One statement loads the user and, for a PET_OWNER, the linked owner record's id.
        guard let row = try await request.db.sql.raw("""
            SELECT users.*, pet_owners.id AS linked_pet_owner_id FROM users
            LEFT JOIN pet_owners ON pet_owners.user_id = users.id
            WHERE users.id = \(bind: userID)
            """).first()
        else { throw invalid }
        let user = try row.decode(model: User.self)
        // A deactivated user's tokens say so (§2.2), although the deactivation also moved the version on.
        guard user.isActive else { throw APIError.unauthorized("Inactive user") }
        // Every password, role or activation change increments the version: older tokens are void (§2.1).
        guard verified.version == user.tokenVersion else { throw invalid }

        let petOwnerID = user.role == .petOwner ? try row.decode(column: "linked_pet_owner_id", as: UUID?.self) : nil
        request.setCaller(Caller(id: userID, role: user.role, practiceID: user.practiceID, petOwnerID: petOwnerID, user: user))
        request.loggedSubject = userID.lowercased
        return try await next.respond(to: request)
    }
}
