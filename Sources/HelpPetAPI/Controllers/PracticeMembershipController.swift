import AppCore
import Fluent
import Foundation
import Vapor

/// `PUT /auth/me/practice {practice_id}`: the app's "join a practice" step. Asking never grants access: the practice is
/// recorded as the PENDING user's request, and an ADMIN admits them with `PUT /users/{id}` (`practice_id`, optionally
/// `role`). `practice_id: null` withdraws the request. Registered outside PendingMembershipGate.
struct PracticeMembershipController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.put("auth", "me", "practice", use: requestMembership)
    }

    @Sendable func requestMembership(req: Request) async throws -> Response {
        let caller = try req.caller
        let fields = try req.jsonObject()
        let requested = try fields.optionalUUID("practice_id", kind: .practice)
        if case .absent = requested { throw APIError.badRequest("practice_id is required") }
        let practiceID = requested.valueIfPresent
        let user = try await req.users.callerUser(caller)

        switch caller.role {
        case .pending:
            if let practiceID { _ = try await Self.joinablePractice(practiceID, on: req.db) }
            if user.requestedPracticeID != practiceID {
                user.requestedPracticeID = practiceID
                user.updatedAt = req.now
                // Conditional: an ADMIN who admitted the user meanwhile is not undone by a stale request.
                try await req.users.setRequestedPractice(
                    practiceID, ofPendingUser: caller.id, now: user.updatedAt)
            }
        case .vet, .vetStaff:
            // The app asks to join the practice it has just created (self-service): already done, so 200.
            guard practiceID == user.practiceID else {
                throw APIError.conflict(
                    "You already belong to a practice; an administrator can move you to another one")
            }
        case .admin:
            throw APIError.conflict("Administrators do not belong to a practice")
        case .petOwner:
            throw APIError.forbidden("Pet owners cannot join a practice as staff")
        }
        return try JSONResponse.make(UserResponse(user, petOwnerID: nil))
    }

    /// A practice a user may ask to join: an existing, active one (the directory lists no other).
    static func joinablePractice(_ id: UUID, on db: any Database) async throws -> Practice {
        guard let practice = try await PracticeStore(db: db).joinable(id) else { throw APIError.practiceNotFound }
        return practice
    }
}
