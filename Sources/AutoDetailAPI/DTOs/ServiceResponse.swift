import AppCore
import Foundation

/// A Service (contract §3.1): one representation for the client and the console. Decodes with the seed's `Service`.
struct ServiceResponse: Encodable, Sendable {
    let id: String
    let name: String
    let description: String
    let priceRub: Int
    let durationMinutes: Int
    @NullEncodable var imageUrl: String?
    let active: Bool
    let createdAt: Date
    let updatedAt: Date

    init(_ s: ServiceRecord) {
        id = s.id!.lowercased
        name = s.name
        description = s.description
        priceRub = s.priceRub
        durationMinutes = s.durationMinutes
        imageUrl = s.imageURL
        active = s.active
        createdAt = s.createdAt
        updatedAt = s.updatedAt
    }

    /// The catalogue order: normalised name by code points, then id (§4.2.1).
    static func sorted(_ services: [ServiceRecord]) -> [ServiceRecord] {
        services.sorted {
            let a = Array($0.nameNormalized.unicodeScalars.map(\.value)), b = Array($1.nameNormalized.unicodeScalars.map(\.value))
            if a != b { return a.lexicographicallyPrecedes(b) }
            return $0.id!.lowercased < $1.id!.lowercased
        }
    }
}
