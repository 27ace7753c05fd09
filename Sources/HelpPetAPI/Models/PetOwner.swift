import Fluent
import Foundation

package final class PetOwner: Model, @unchecked Sendable {
    package static let schema = "pet_owners"

    @ID(key: .id) package var id: UUID?
    @Field(key: "first_name") package var firstName: String
    @Field(key: "last_name") package var lastName: String
    @Field(key: "email") package var email: String
    @OptionalField(key: "phone") package var phone: String?
    @OptionalField(key: "address") package var address: String?
    @OptionalField(key: "user_id") package var userID: UUID?
    @OptionalField(key: "secondary_phone") package var secondaryPhone: String?
    @OptionalField(key: "emergency_contact") package var emergencyContact: String?
    @OptionalField(key: "preferred_communication") package var preferredCommunication: String?
    @Field(key: "notifications_enabled") package var notificationsEnabled: Bool
    @Field(key: "created_at") package var createdAt: Date
    @Field(key: "updated_at") package var updatedAt: Date

    /// The column defaults of M0112 for new rows; a row loaded from the database overwrites them.
    package init() { notificationsEnabled = true }

    /// First and last name joined by one space; an owner created from a one-word `full_name` has an empty last name
    /// and is just the first name (FullNameSplit reverses this exactly).
    var fullName: String { lastName.isEmpty ? firstName : firstName + " " + lastName }
}

/// The owner is a client of the practice: this row is what makes the owner visible to its members.
package final class PetOwnerPractice: Model, @unchecked Sendable {
    package static let schema = "pet_owner_practices"

    @CompositeID package var id: IDValue?
    @Field(key: "created_at") package var createdAt: Date

    package final class IDValue: Fields, Hashable, @unchecked Sendable {
        @Field(key: "pet_owner_id") package var petOwnerID: UUID
        @Field(key: "practice_id") package var practiceID: UUID

        package init() {}
        package init(petOwnerID: UUID, practiceID: UUID) {
            self.petOwnerID = petOwnerID
            self.practiceID = practiceID
        }

        package static func == (a: IDValue, b: IDValue) -> Bool { a.petOwnerID == b.petOwnerID && a.practiceID == b.practiceID }
        package func hash(into hasher: inout Hasher) { hasher.combine(petOwnerID); hasher.combine(practiceID) }
    }

    package init() {}
}
