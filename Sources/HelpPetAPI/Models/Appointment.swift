import Fluent
import Foundation

package final class Appointment: Model, @unchecked Sendable {
    package static let schema = "appointments"

    @ID(key: .id) package var id: UUID?
    @Field(key: "practice_id") package var practiceID: UUID
    @Field(key: "pet_owner_id") package var petOwnerID: UUID
    @OptionalField(key: "assigned_vet_user_id") package var assignedVetUserID: UUID?
    @Field(key: "created_by_user_id") package var createdByUserID: UUID
    @Field(key: "appointment_date") package var appointmentDate: Date
    @Field(key: "duration_minutes") package var durationMinutes: Int
    @Field(key: "appointment_type") package var appointmentType: String
    @Field(key: "status") package var statusValue: String
    @Field(key: "title") package var title: String
    @OptionalField(key: "description") package var description: String?
    @OptionalField(key: "notes") package var notes: String?
    @Field(key: "created_at") package var createdAt: Date
    @Field(key: "updated_at") package var updatedAt: Date

    package init() {}

    var status: AppointmentStatus { AppointmentStatus(rawValue: statusValue) ?? .scheduled }
}

/// One pet of an appointment, in `pet_ids` order.
package final class AppointmentPet: Model, @unchecked Sendable {
    package static let schema = "appointment_pets"

    @CompositeID package var id: IDValue?
    @Field(key: "position") package var position: Int

    package final class IDValue: Fields, Hashable, @unchecked Sendable {
        @Field(key: "appointment_id") package var appointmentID: UUID
        @Field(key: "pet_id") package var petID: UUID

        package init() {}
        package init(appointmentID: UUID, petID: UUID) {
            self.appointmentID = appointmentID
            self.petID = petID
        }

        package static func == (a: IDValue, b: IDValue) -> Bool { a.appointmentID == b.appointmentID && a.petID == b.petID }
        package func hash(into hasher: inout Hasher) { hasher.combine(appointmentID); hasher.combine(petID) }
    }

    package init() {}
}
