import AppCore
import Foundation

struct OwnedPetSummary: Encodable, Sendable {
    let id: String
    let name: String
    let species: String
    @NullEncodable var breed: String?
}

struct PetOwnerResponse: Encodable, Sendable {
    let id: String
    /// The same value as `id`: the iPhone app identifies owners by `uuid`.
    let uuid: String
    let first_name: String
    let last_name: String
    let full_name: String
    let email: String
    @NullEncodable var phone: String?
    @NullEncodable var secondary_phone: String?
    @NullEncodable var address: String?
    @NullEncodable var emergency_contact: String?
    @NullEncodable var preferred_communication: String?
    let notifications_enabled: Bool
    @NullEncodable var user_id: String?
    let practice_ids: [String]
    let pets: [OwnedPetSummary]
    let created_at: Date
    let updated_at: Date

    init(_ o: PetOwner, practiceIDs: [String], pets: [OwnedPetSummary]) {
        id = o.id!.lowercased
        uuid = id
        first_name = o.firstName
        last_name = o.lastName
        full_name = o.fullName
        email = o.email
        phone = o.phone
        secondary_phone = o.secondaryPhone
        address = o.address
        emergency_contact = o.emergencyContact
        preferred_communication = o.preferredCommunication
        notifications_enabled = o.notificationsEnabled
        user_id = o.userID?.lowercased
        practice_ids = practiceIDs
        self.pets = pets
        created_at = o.createdAt
        updated_at = o.updatedAt
    }
}
