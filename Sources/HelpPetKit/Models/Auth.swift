import Foundation

/// The answer to `POST /api/v1/auth/token` (seed 003).
public struct LoginResponse: Codable, Sendable, Hashable {
    /// The bearer token (JWT, HS256).
    public let accessToken: String
    /// Always `bearer`.
    public let tokenType: String
    /// Lifetime of the token in seconds (28800); absent from the seed model, sent by the server.
    public let expiresIn: Int?

    public init(accessToken: String, tokenType: String = "bearer", expiresIn: Int? = nil) {
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.expiresIn = expiresIn
    }

    enum CodingKeys: String, CodingKey {
        case accessToken = "access_token"
        case tokenType = "token_type"
        case expiresIn = "expires_in"
    }
}

/// A user account (seed 003 `User`, plus the contract's `pet_owner_id` and timestamps).
public struct User: Codable, Sendable, Hashable, Identifiable {
    public let id: String
    public let username: String
    /// Never null.
    public let email: String
    public let fullName: String
    public let role: UserRole
    public let isActive: Bool
    /// Non-null exactly for `VET` and `VET_STAFF`.
    public let practiceId: String?
    /// The linked pet-owner record; non-null exactly for `PET_OWNER`.
    public let petOwnerId: String?
    public let createdAt: Date?
    public let updatedAt: Date?

    public init(
        id: String, username: String, email: String, fullName: String, role: UserRole, isActive: Bool,
        practiceId: String?, petOwnerId: String? = nil, createdAt: Date? = nil, updatedAt: Date? = nil
    ) {
        self.id = id
        self.username = username
        self.email = email
        self.fullName = fullName
        self.role = role
        self.isActive = isActive
        self.practiceId = practiceId
        self.petOwnerId = petOwnerId
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    enum CodingKeys: String, CodingKey {
        case id, username, email, role
        case fullName = "full_name"
        case isActive = "is_active"
        case practiceId = "practice_id"
        case petOwnerId = "pet_owner_id"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    /// True for `VET` and `VET_STAFF` (the roles with a dashboard).
    public var isPracticeMember: Bool { role == .vet || role == .vetStaff }
}

/// The role of a user (seed 003). The server emits exactly these four values.
public enum UserRole: String, Codable, Sendable, Hashable, CaseIterable {
    case vetStaff = "VET_STAFF"
    case vet = "VET"
    case admin = "ADMIN"
    case petOwner = "PET_OWNER"
}
