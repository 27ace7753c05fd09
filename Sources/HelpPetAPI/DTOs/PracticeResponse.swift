import AppCore
import Foundation

struct PracticeResponse: Encodable, Sendable {
    let id: String
    let name: String
    let timezone: String
    @NullEncodable var phone: String?
    @NullEncodable var email: String?
    @NullEncodable var address: String?
    let is_active: Bool
    let created_at: Date
    let updated_at: Date

    init(_ p: Practice) {
        id = p.id!.lowercased
        name = p.name
        timezone = p.timezone
        phone = p.phone
        email = p.email
        address = p.address
        is_active = p.isActive
        created_at = p.createdAt
        updated_at = p.updatedAt
    }
}
