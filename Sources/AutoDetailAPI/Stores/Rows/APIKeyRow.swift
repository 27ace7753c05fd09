import Foundation

/// A row of `ad_api_keys` (contract §3.5); only the key's SHA-256 is stored, and it is never selected.
struct APIKeyRow: Decodable, Sendable {
    static let columns = """
        id, kind, name, key_prefix, full_access, created_at, last_used_at, request_count, revoked, revoked_at
        """

    let id: UUID
    let kind: String
    let name: String
    let keyPrefix: String
    let fullAccess: Bool
    let createdAt: Date
    let lastUsedAt: Date?
    let requestCount: Int
    let revoked: Bool
    let revokedAt: Date?
}

/// What the per-request key check reads: the key and, for an install key, its install's id and priority.
struct KeyCheckRow: Decodable, Sendable {
    let id: UUID
    let kind: String
    let fullAccess: Bool
    let revoked: Bool
    let installId: UUID?
    let priority: String?
}
