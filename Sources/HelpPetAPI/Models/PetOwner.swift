import Fluent
import Foundation

final class PetOwner: Model, @unchecked Sendable {
    static let schema = "pet_owners"

    @ID(key: .id) var id: UUID?
    @Field(key: "first_name") var firstName: String
    @Field(key: "last_name") var lastName: String
    @Field(key: "email") var email: String
    @OptionalField(key: "phone") var phone: String?
    @OptionalField(key: "address") var address: String?
    @OptionalField(key: "user_id") var userID: UUID?
    @OptionalField(key: "secondary_phone") var secondaryPhone: String?
    @OptionalField(key: "emergency_contact") var emergencyContact: String?
    @OptionalField(key: "preferred_communication") var preferredCommunication: String?
    @Field(key: "notifications_enabled") var notificationsEnabled: Bool
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date

    /// The column defaults of M0112 for new rows; a row loaded from the database overwrites them.
    init() { notificationsEnabled = true }

    /// First and last name joined by one space; an owner created from a one-word `full_name` has an empty last name
    /// and is just the first name (FullNameSplit reverses this exactly).
    var fullName: String { lastName.isEmpty ? firstName : firstName + " " + lastName }
}

/// The owner is a client of the practice: this row is what makes the owner visible to its members.
final class PetOwnerPractice: Model, @unchecked Sendable {
    static let schema = "pet_owner_practices"

    @CompositeID var id: IDValue?
    @Field(key: "created_at") var createdAt: Date

    final class IDValue: Fields, Hashable, @unchecked Sendable {
        @Field(key: "pet_owner_id") var petOwnerID: UUID
        @Field(key: "practice_id") var practiceID: UUID

        init() {}
        init(petOwnerID: UUID, practiceID: UUID) {
            self.petOwnerID = petOwnerID
            self.practiceID = practiceID
        }

        static func == (a: IDValue, b: IDValue) -> Bool { a.petOwnerID == b.petOwnerID && a.practiceID == b.practiceID }
        func hash(into hasher: inout Hasher) { hasher.combine(petOwnerID); hasher.combine(practiceID) }
    }

    init() {}
}
