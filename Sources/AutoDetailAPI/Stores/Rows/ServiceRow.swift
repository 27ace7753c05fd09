import Foundation

/// A row of `ad_services` (contract §3.1) as the stores return it: decoded once by SQLKit, no Fluent model box.
struct ServiceRow: Decodable, Sendable, Equatable {
    /// The column list every service statement selects, in this struct's order.
    static let columns = """
        id, name, name_normalized, description, price_rub, duration_minutes, image_url, active, created_at, updated_at
        """

    let id: UUID
    var name: String
    var nameNormalized: String
    var description: String
    var priceRub: Int
    var durationMinutes: Int
    var imageUrl: String?
    var active: Bool
    let createdAt: Date
    var updatedAt: Date

    /// Trimmed and Unicode lower-cased: the uniqueness and sort key of a name (§3.1, §4.2.1).
    static func normalizedName(_ name: String) -> String {
        name.trimmingCharacters(in: .whitespacesAndNewlines).precomposedStringWithCanonicalMapping.lowercased()
    }

    /// The catalogue order: normalised name by code points, then id (§4.2.1). Done in Swift because the two engines'
    /// collations differ.
    static func catalogueOrder(_ services: [ServiceRow]) -> [ServiceRow] {
        services.sorted {
            let a = Array($0.nameNormalized.unicodeScalars.map(\.value)), b = Array($1.nameNormalized.unicodeScalars.map(\.value))
            if a != b { return a.lexicographicallyPrecedes(b) }
            return $0.id.lowercased < $1.id.lowercased
        }
    }
}
