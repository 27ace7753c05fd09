import Fluent
import Foundation

package final class Pet: Model, @unchecked Sendable {
    package static let schema = "pets"

    @ID(key: .id) package var id: UUID?
    @Field(key: "owner_id") package var ownerID: UUID
    @Field(key: "name") package var name: String
    @Field(key: "species") package var species: String
    @OptionalField(key: "breed") package var breed: String?
    @OptionalField(key: "color") package var color: String?
    @OptionalField(key: "gender") package var gender: String?
    /// `YYYY-MM-DD`; kept as text so both engines store the calendar day itself, not an instant.
    @OptionalField(key: "date_of_birth") package var dateOfBirth: String?
    @OptionalField(key: "weight") package var weight: Double?
    @OptionalField(key: "microchip_number") package var microchipNumber: String?
    @OptionalField(key: "allergies") package var allergies: String?
    @OptionalField(key: "spayed_neutered") package var spayedNeutered: Bool?
    @OptionalField(key: "medications") package var medications: String?
    @OptionalField(key: "medical_notes") package var medicalNotes: String?
    @OptionalField(key: "emergency_contact") package var emergencyContact: String?
    @OptionalField(key: "emergency_phone") package var emergencyPhone: String?
    @Field(key: "is_active") package var isActive: Bool
    @Field(key: "registration_date") package var registrationDate: String
    @Field(key: "created_at") package var createdAt: Date
    @Field(key: "updated_at") package var updatedAt: Date

    package init() {}
}
