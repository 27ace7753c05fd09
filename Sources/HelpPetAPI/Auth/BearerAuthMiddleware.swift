import AppCore
import Fluent
import Foundation
import Vapor

/// Authenticates `Authorization: Bearer <jwt>`; every failure is 401 with `WWW-Authenticate: Bearer`.
///
/// Without an `Authorization` header, the clinic console's session cookie is accepted instead, but only with the
/// session's CSRF token in `X-CSRF-Token` (the console's scripts call the API this way, so a console action and an
/// API call follow the same rules and give the same messages; docs/web-console.md).
struct BearerAuthMiddleware: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        guard let header = request.headers.first(name: .authorization) else {
            if let token = request.cookies[ClinicSession.cookieName]?.string, !token.isEmpty {
                try await ClinicSession.authenticateAPICall(request, cookieToken: token)
                return try await next.respond(to: request)
            }
            throw APIError.notAuthenticated
        }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            throw APIError.notAuthenticated
        }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        guard !token.isEmpty else { throw APIError.notAuthenticated }

        guard let verified = await request.core.tokens.verify(token, now: request.core.clock.now()), let userID = UUID(canonical: verified.subject)
        else { throw APIError.invalidCredentials }
        try await Self.admit(request, userID: userID, tokenVersion: verified.version)
        return try await next.respond(to: request)
    }

    /// The checks a token and a console session share: the user exists, is active, and its token version is the
    /// one the credential was minted with. Sets the request's caller.
    static func admit(_ request: Request, userID: UUID, tokenVersion: Int) async throws {
        let invalid = APIError.invalidCredentials
        // From the process-local cache (at most one second old, ReadPathCaches): no query on most requests.
        guard let identity = try await request.readPathCaches.identity(of: userID, on: request.db) else { throw invalid }
        // A deactivated user's tokens say so (§2.2), although the deactivation also moved the version on.
        guard identity.isActive else { throw APIError.unauthorized("Inactive user") }
        // Every password, role or activation change increments the version: older tokens are void (§2.1).
        guard tokenVersion == identity.tokenVersion else { throw invalid }

        let role = identity.userRole
        request.setCaller(Caller(
            id: userID, role: role, practiceID: identity.practiceID,
            petOwnerID: role == .petOwner ? identity.linkedPetOwnerID : nil))
        request.loggedSubject = userID.lowercased
    }
}
