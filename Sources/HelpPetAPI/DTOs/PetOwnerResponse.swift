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
    let firstName: String
    let lastName: String
    let fullName: String
    let email: String
    @NullEncodable var phone: String?
    @NullEncodable var secondaryPhone: String?
    @NullEncodable var address: String?
    @NullEncodable var emergencyContact: String?
    @NullEncodable var preferredCommunication: String?
    let notificationsEnabled: Bool
    @NullEncodable var userID: String?
    let practiceIDs: [String]
    let pets: [OwnedPetSummary]
    let createdAt: Date
    let updatedAt: Date

    enum CodingKeys: String, CodingKey {
        case id, uuid
        case firstName = "first_name"
        case lastName = "last_name"
        case fullName = "full_name"
        case email, phone
        case secondaryPhone = "secondary_phone"
        case address
        case emergencyContact = "emergency_contact"
        case preferredCommunication = "preferred_communication"
        case notificationsEnabled = "notifications_enabled"
        case userID = "user_id"
        case practiceIDs = "practice_ids"
        case pets
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    init(_ o: PetOwner, practiceIDs: [String], pets: [OwnedPetSummary]) {
        id = o.id!.lowercased
        uuid = id
        firstName = o.firstName
        lastName = o.lastName
        fullName = o.fullName
        email = o.email
        phone = o.phone
        secondaryPhone = o.secondaryPhone
        address = o.address
        emergencyContact = o.emergencyContact
        preferredCommunication = o.preferredCommunication
        notificationsEnabled = o.notificationsEnabled
        userID = o.userID?.lowercased
        self.practiceIDs = practiceIDs
        self.pets = pets
        createdAt = o.createdAt
        updatedAt = o.updatedAt
    }
}
