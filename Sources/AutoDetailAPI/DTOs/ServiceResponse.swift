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

    init(_ s: ServiceRow) {
        id = s.id.lowercased
        name = s.name
        description = s.description
        priceRub = s.priceRub
        durationMinutes = s.durationMinutes
        imageUrl = s.imageUrl
        active = s.active
        createdAt = s.createdAt
        updatedAt = s.updatedAt
    }
}
