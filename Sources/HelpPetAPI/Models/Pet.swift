import Fluent
import Foundation

final class Pet: Model, @unchecked Sendable {
    static let schema = "pets"

    @ID(key: .id) var id: UUID?
    @Field(key: "owner_id") var ownerID: UUID
    @Field(key: "name") var name: String
    @Field(key: "species") var species: String
    @OptionalField(key: "breed") var breed: String?
    @OptionalField(key: "color") var color: String?
    @OptionalField(key: "gender") var gender: String?
    /// `YYYY-MM-DD`; kept as text so both engines store the calendar day itself, not an instant.
    @OptionalField(key: "date_of_birth") var dateOfBirth: String?
    @OptionalField(key: "weight") var weight: Double?
    @OptionalField(key: "microchip_number") var microchipNumber: String?
    @OptionalField(key: "allergies") var allergies: String?
    @OptionalField(key: "spayed_neutered") var spayedNeutered: Bool?
    @OptionalField(key: "medications") var medications: String?
    @OptionalField(key: "medical_notes") var medicalNotes: String?
    @OptionalField(key: "emergency_contact") var emergencyContact: String?
    @OptionalField(key: "emergency_phone") var emergencyPhone: String?
    @Field(key: "is_active") var isActive: Bool
    @Field(key: "registration_date") var registrationDate: String
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date

    init() {}
}
