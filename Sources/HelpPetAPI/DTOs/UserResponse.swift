import AppCore
import Foundation

struct UserResponse: Encodable, Sendable {
    let id: String
    let username: String
    let email: String
    let full_name: String
    let role: String
    let is_active: Bool
    @NullEncodable var practice_id: String?
    @NullEncodable var pet_owner_id: String?
    let created_at: Date
    let updated_at: Date
    /// Only a PENDING user's answer has these keys (plain optionals are omitted when nil), so the contract's user
    /// keeps its exact key set: the member role they become when admitted, and the practice they asked to join.
    let requested_role: String?
    let requested_practice_id: String?

    init(_ user: User, petOwnerID: UUID?) {
        id = user.id!.lowercased
        username = user.username
        email = user.email
        full_name = user.fullName
        role = user.roleValue
        is_active = user.isActive
        practice_id = user.practiceID?.lowercased
        pet_owner_id = petOwnerID?.lowercased
        created_at = user.createdAt
        updated_at = user.updatedAt
        requested_role = user.role == .pending ? user.requestedRole.rawValue : nil
        requested_practice_id = user.role == .pending ? user.requestedPracticeID?.lowercased : nil
    }
}

struct LoginResponse: Encodable, Sendable {
    let access_token: String
    let token_type: String
    let expires_in: Int
}
