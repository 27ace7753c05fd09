import AppCore
import Vapor

/// `GET /auth/me`: the signed-in user, open to every valid token (a PENDING user too, to learn its state).
struct CurrentUserController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get("auth", "me", use: me)
    }

    @Sendable func me(req: Request) async throws -> Response {
        let caller = try req.caller
        // The user may have changed within the cache's second; the full row is read (not a hot path).
        let user = try await req.users.callerUser(caller)
        return try JSONResponse.make(UserResponse(user, petOwnerID: caller.petOwnerID))
    }
}
