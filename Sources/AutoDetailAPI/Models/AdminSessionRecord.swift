import Fluent
import Foundation

/// A row of `ad_admin_sessions`: one admin token (only its SHA-256 is stored).
final class AdminSessionRecord: Model, @unchecked Sendable {
    static let schema = "ad_admin_sessions"

    @ID(key: .id) var id: UUID?
    @Field(key: "admin_user_id") var adminUserID: UUID
    @Field(key: "token_hash") var tokenHash: String
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "expires_at") var expiresAt: Date
    @OptionalField(key: "revoked_at") var revokedAt: Date?

    init() {}
}
