import Foundation

/// A service of the studio's catalogue, exactly as the iOS guide (the seed) declares it: same names, same types,
/// dates kept as the server's strings (`2025-03-01T10:00:00Z`, parseable with a default `ISO8601DateFormatter`).
///
/// The server also sends `active` and `updatedAt`; they are kept as optional extras so a `Service` decoded from a
/// seed-shaped body (without them) still works, and the console commands can show them.
public struct Service: Codable, Sendable, Hashable, Identifiable {
    public let id: String
    public let name: String
    /// `""` when the service has no description (never null).
    public let description: String
    public let priceRub: Int
    /// The slot length of the service.
    public let durationMinutes: Int
    public let imageUrl: String?
    public let createdAt: String
    /// Extra (not in the seed): `false` for a soft-deleted service, seen only by the admin.
    public let active: Bool?
    /// Extra (not in the seed).
    public let updatedAt: String?

    public init(
        id: String, name: String, description: String, priceRub: Int, durationMinutes: Int, imageUrl: String?,
        createdAt: String, active: Bool? = nil, updatedAt: String? = nil
    ) {
        self.id = id
        self.name = name
        self.description = description
        self.priceRub = priceRub
        self.durationMinutes = durationMinutes
        self.imageUrl = imageUrl
        self.createdAt = createdAt
        self.active = active
        self.updatedAt = updatedAt
    }
}
