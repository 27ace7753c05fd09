import Fluent
import Foundation

/// A row of `ad_api_keys` (contract §3.5); only the key's SHA-256 is stored.
final class APIKeyRecord: Model, @unchecked Sendable {
    static let schema = "ad_api_keys"

    @ID(key: .id) var id: UUID?
    @Field(key: "kind") var kind: String
    @Field(key: "name") var name: String
    @Field(key: "key_prefix") var keyPrefix: String
    @Field(key: "key_hash") var keyHash: String
    @Field(key: "full_access") var fullAccess: Bool
    @Field(key: "created_at") var createdAt: Date
    @OptionalField(key: "last_used_at") var lastUsedAt: Date?
    @Field(key: "request_count") var requestCount: Int
    @Field(key: "revoked") var revoked: Bool
    @OptionalField(key: "revoked_at") var revokedAt: Date?

    init() {}
}
