import Fluent
import Foundation

/// A row of `ad_admin_users` (contract §3.8; never returned by the API).
final class AdminUserRecord: Model, @unchecked Sendable {
    static let schema = "ad_admin_users"

    @ID(key: .id) var id: UUID?
    @Field(key: "username") var username: String
    @Field(key: "password_hash") var passwordHash: String
    @Field(key: "created_at") var createdAt: Date
    @OptionalField(key: "last_login_at") var lastLoginAt: Date?
    @Field(key: "password_changed_at") var passwordChangedAt: Date
    /// Copied into each session at login; a password change increments it, voiding every other session.
    @Field(key: "token_version") var tokenVersion: Int

    init() {}
}
