import Fluent
import Foundation

/// A row of `ad_services` (contract §3.1).
final class ServiceRecord: Model, @unchecked Sendable {
    static let schema = "ad_services"

    @ID(key: .id) var id: UUID?
    @Field(key: "name") var name: String
    @Field(key: "name_normalized") var nameNormalized: String
    @Field(key: "description") var description: String
    @Field(key: "price_rub") var priceRub: Int
    @Field(key: "duration_minutes") var durationMinutes: Int
    @OptionalField(key: "image_url") var imageURL: String?
    @Field(key: "active") var active: Bool
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date

    init() {}

    /// Trimmed and Unicode lower-cased: the uniqueness and sort key of a name (§3.1, §4.2.1).
    static func normalizedName(_ name: String) -> String {
        name.trimmingCharacters(in: .whitespacesAndNewlines).precomposedStringWithCanonicalMapping.lowercased()
    }
}
