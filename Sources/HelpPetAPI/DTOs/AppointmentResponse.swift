import AppCore
import Foundation

struct RecordingSummary: Encodable, Sendable {
    let visit_id: String
    let state: String
}

struct PetSummaryResponse: Encodable, Sendable {
    let id: String
    let name: String
    let species: String
    @NullEncodable var breed: String?
    @NullEncodable var recording: RecordingSummary?
}

struct AppointmentResponse: Encodable, Sendable {
    let id: String
    let practice_id: String
    let pet_owner_id: String
    @NullEncodable var assigned_vet_user_id: String?
    let appointment_date: Date
    let duration_minutes: Int
    let appointment_type: String
    let status: String
    let title: String
    @NullEncodable var description: String?
    @NullEncodable var notes: String?
    let pets: [PetSummaryResponse]
    let created_at: Date
    let updated_at: Date

    init(_ a: Appointment, pets: [PetSummaryResponse]) {
        id = a.id!.lowercased
        practice_id = a.practiceID.lowercased
        pet_owner_id = a.petOwnerID.lowercased
        assigned_vet_user_id = a.assignedVetUserID?.lowercased
        appointment_date = a.appointmentDate
        duration_minutes = a.durationMinutes
        appointment_type = a.appointmentType
        status = a.statusValue
        title = a.title
        description = a.description
        notes = a.notes
        self.pets = pets
        created_at = a.createdAt
        updated_at = a.updatedAt
    }

    init(_ a: AppointmentPetRow, pets: [PetSummaryResponse]) {
        id = a.id.lowercased
        practice_id = a.practice_id.lowercased
        pet_owner_id = a.pet_owner_id.lowercased
        assigned_vet_user_id = a.assigned_vet_user_id?.lowercased
        appointment_date = a.appointment_date
        duration_minutes = a.duration_minutes
        appointment_type = a.appointment_type
        status = a.status
        title = a.title
        description = a.description
        notes = a.notes
        self.pets = pets
        created_at = a.created_at
        updated_at = a.updated_at
    }
}
