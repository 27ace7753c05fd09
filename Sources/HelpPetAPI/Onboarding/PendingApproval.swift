import AppCore
import Foundation

/// How `PUT /users/{id}` (ADMIN) admits a PENDING user: giving them a `practice_id` (with or without `role`) is the
/// approval. Without `role` they become the member role they signed up for. Kept here so UsersController only calls it.
enum PendingApproval {
    /// The role a user ends up with when the body names none: unchanged, except a pending user given a practice.
    static func role(of user: User, admittedTo practiceID: UUID?) -> UserRole {
        guard user.role == .pending, practiceID != nil else { return user.role }
        return user.requestedRole
    }

    /// A role change voids the user's tokens (contract §2.1), except leaving PENDING: admission only grants access,
    /// and the app keeps working with the token it got at signup.
    static func roleChangeVoidsTokens(from old: UserRole, to new: UserRole) -> Bool {
        old != new && old != .pending
    }

    /// A user who is no longer pending has no request.
    static func clearRequest(of user: User, newRole: UserRole) {
        guard newRole != .pending else { return }
        user.setIfChanged(\.requestedPracticeID, nil)
        user.setIfChanged(\.requestedRoleValue, nil)
    }

    /// `GET /users?role=`: the request roles, or `PENDING` to list the users waiting for approval. Without the filter
    /// pending users are left out, so the list keeps the contract's (and seed 003's) four role values.
    static func roleFilter(_ query: QueryParameters) throws -> UserRole? {
        if query.values["role"] == UserRole.pending.rawValue { return .pending }
        return try query.enumValue("role", UserRole.self)
    }
}
