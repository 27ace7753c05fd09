import Fluent
import Foundation

package final class User: Model, @unchecked Sendable {
    package static let schema = "users"

    @ID(key: .id) package var id: UUID?
    @Field(key: "username") package var username: String
    @Field(key: "email") package var email: String
    @Field(key: "full_name") package var fullName: String
    @Field(key: "role") package var roleValue: String
    @OptionalField(key: "practice_id") package var practiceID: UUID?
    @Field(key: "password_hash") package var passwordHash: String
    @Field(key: "is_active") package var isActive: Bool
    @Field(key: "credentials_changed_at") package var credentialsChangedAt: Date
    /// Incremented with every password, role or activation change; tokens carry it as `ver` (contract §2.1).
    @Field(key: "token_version") package var tokenVersion: Int
    @Field(key: "created_at") package var createdAt: Date
    @Field(key: "updated_at") package var updatedAt: Date
    /// A PENDING user's request (M0116): the practice they asked to join (`PUT /auth/me/practice`) and the member
    /// role they signed up for. Both are null for every other role.
    @OptionalField(key: "requested_practice_id") package var requestedPracticeID: UUID?
    @OptionalField(key: "requested_role") package var requestedRoleValue: String?

    package init() {}

    /// A new account as `POST /users` and `POST /auth/signup` create it: token version 0, credentials set now.
    init(
        username: String, email: String, fullName: String, role: UserRole, practiceID: UUID?, passwordHash: String,
        isActive: Bool, now: Date
    ) {
        self.id = UUID()
        self.username = username
        self.email = email
        self.fullName = fullName
        self.roleValue = role.rawValue
        self.practiceID = practiceID
        self.passwordHash = passwordHash
        self.isActive = isActive
        self.credentialsChangedAt = now
        self.tokenVersion = 0
        self.createdAt = now
        self.updatedAt = now
    }

    /// The member role a PENDING user becomes when admitted: the one requested at signup, VET_STAFF by default.
    var requestedRole: UserRole { requestedRoleValue.flatMap(UserRole.init(rawValue:)).flatMap { $0.isMember ? $0 : nil } ?? .vetStaff }

    var role: UserRole { UserRole(rawValue: roleValue) ?? .petOwner }
}
