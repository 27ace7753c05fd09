import Fluent
import Foundation

final class Appointment: Model, @unchecked Sendable {
    static let schema = "appointments"

    @ID(key: .id) var id: UUID?
    @Field(key: "practice_id") var practiceID: UUID
    @Field(key: "pet_owner_id") var petOwnerID: UUID
    @OptionalField(key: "assigned_vet_user_id") var assignedVetUserID: UUID?
    @Field(key: "created_by_user_id") var createdByUserID: UUID
    @Field(key: "appointment_date") var appointmentDate: Date
    @Field(key: "duration_minutes") var durationMinutes: Int
    @Field(key: "appointment_type") var appointmentType: String
    @Field(key: "status") var statusValue: String
    @Field(key: "title") var title: String
    @OptionalField(key: "description") var description: String?
    @OptionalField(key: "notes") var notes: String?
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date

    init() {}

    var status: AppointmentStatus { AppointmentStatus(rawValue: statusValue) ?? .scheduled }
}

/// One pet of an appointment, in `pet_ids` order.
final class AppointmentPet: Model, @unchecked Sendable {
    static let schema = "appointment_pets"

    @CompositeID var id: IDValue?
    @Field(key: "position") var position: Int

    final class IDValue: Fields, Hashable, @unchecked Sendable {
        @Field(key: "appointment_id") var appointmentID: UUID
        @Field(key: "pet_id") var petID: UUID

        init() {}
        init(appointmentID: UUID, petID: UUID) {
            self.appointmentID = appointmentID
            self.petID = petID
        }

        static func == (a: IDValue, b: IDValue) -> Bool { a.appointmentID == b.appointmentID && a.petID == b.petID }
        func hash(into hasher: inout Hasher) { hasher.combine(appointmentID); hasher.combine(petID) }
    }

    init() {}
}
