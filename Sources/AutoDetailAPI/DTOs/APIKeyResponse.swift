import AppCore
import Foundation

/// An ApiKey (contract §3.5); `key` only in the create answer, the one time the full key is shown.
struct APIKeyResponse: Encodable, Sendable {
    let id: String
    let kind: String
    let name: String
    let keyPrefix: String
    let fullAccess: Bool
    let key: String?
    let createdAt: Date
    let lastUsedAt: Date?
    let requestCount: Int
    let revoked: Bool
    let revokedAt: Date?

    enum CodingKeys: String, CodingKey {
        case id, kind, name, keyPrefix, fullAccess, key, createdAt, lastUsedAt, requestCount, revoked, revokedAt
    }

    init(_ k: APIKeyRow, key: String? = nil) {
        id = k.id.lowercased
        kind = k.kind
        name = k.name
        keyPrefix = k.keyPrefix
        fullAccess = k.fullAccess
        self.key = key
        createdAt = k.createdAt
        lastUsedAt = k.lastUsedAt
        requestCount = k.requestCount
        revoked = k.revoked
        revokedAt = k.revokedAt
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(kind, forKey: .kind)
        try c.encode(name, forKey: .name)
        try c.encode(keyPrefix, forKey: .keyPrefix)
        try c.encode(fullAccess, forKey: .fullAccess)
        if let key { try c.encode(key, forKey: .key) }
        try c.encode(createdAt, forKey: .createdAt)
        try c.encode(lastUsedAt, forKey: .lastUsedAt)
        try c.encode(requestCount, forKey: .requestCount)
        try c.encode(revoked, forKey: .revoked)
        try c.encode(revokedAt, forKey: .revokedAt)
    }
}
