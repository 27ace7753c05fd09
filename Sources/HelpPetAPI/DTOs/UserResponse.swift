import AppCore
import Foundation

struct UserResponse: Encodable, Sendable {
    let id: String
    let username: String
    let email: String
    let fullName: String
    let role: String
    let isActive: Bool
    @NullEncodable var practiceID: String?
    @NullEncodable var petOwnerID: String?
    let createdAt: Date
    let updatedAt: Date
    /// Only a PENDING user's answer has these keys (plain optionals are omitted when nil), so the contract's user
    /// keeps its exact key set: the member role they become when admitted, and the practice they asked to join.
    let requestedRole: String?
    let requestedPracticeID: String?

    enum CodingKeys: String, CodingKey {
        case id, username, email
        case fullName = "full_name"
        case role
        case isActive = "is_active"
        case practiceID = "practice_id"
        case petOwnerID = "pet_owner_id"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case requestedRole = "requested_role"
        case requestedPracticeID = "requested_practice_id"
    }

    init(_ user: User, petOwnerID: UUID?) {
        id = user.id!.lowercased
        username = user.username
        email = user.email
        fullName = user.fullName
        role = user.roleValue
        isActive = user.isActive
        practiceID = user.practiceID?.lowercased
        self.petOwnerID = petOwnerID?.lowercased
        createdAt = user.createdAt
        updatedAt = user.updatedAt
        requestedRole = user.role == .pending ? user.requestedRole.rawValue : nil
        requestedPracticeID = user.role == .pending ? user.requestedPracticeID?.lowercased : nil
    }
}

struct LoginResponse: Encodable, Sendable {
    let accessToken: String
    let tokenType: String
    let expiresIn: Int

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case tokenType = "token_type"
        case expiresIn = "expires_in"
    }
}
