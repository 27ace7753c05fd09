import AppCore
import Foundation

struct RecordingSummary: Encodable, Sendable {
    let visitID: String
    let state: String

    enum CodingKeys: String, CodingKey {
        case visitID = "visit_id"
        case state
    }
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
    let practiceID: String
    let petOwnerID: String
    @NullEncodable var assignedVetUserID: String?
    let appointmentDate: Date
    let durationMinutes: Int
    let appointmentType: String
    let status: String
    let title: String
    @NullEncodable var description: String?
    @NullEncodable var notes: String?
    let pets: [PetSummaryResponse]
    let createdAt: Date
    let updatedAt: Date

    enum CodingKeys: String, CodingKey {
        case id
        case practiceID = "practice_id"
        case petOwnerID = "pet_owner_id"
        case assignedVetUserID = "assigned_vet_user_id"
        case appointmentDate = "appointment_date"
        case durationMinutes = "duration_minutes"
        case appointmentType = "appointment_type"
        case status, title, description, notes, pets
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    init(_ a: Appointment, pets: [PetSummaryResponse]) {
        id = a.id!.lowercased
        practiceID = a.practiceID.lowercased
        petOwnerID = a.petOwnerID.lowercased
        assignedVetUserID = a.assignedVetUserID?.lowercased
        appointmentDate = a.appointmentDate
        durationMinutes = a.durationMinutes
        appointmentType = a.appointmentType
        status = a.statusValue
        title = a.title
        description = a.description
        notes = a.notes
        self.pets = pets
        createdAt = a.createdAt
        updatedAt = a.updatedAt
    }

    init(_ a: AppointmentPetRow, pets: [PetSummaryResponse]) {
        id = a.id.lowercased
        practiceID = a.practiceID.lowercased
        petOwnerID = a.petOwnerID.lowercased
        assignedVetUserID = a.assignedVetUserID?.lowercased
        appointmentDate = a.appointmentDate
        durationMinutes = a.durationMinutes
        appointmentType = a.appointmentType
        status = a.status
        title = a.title
        description = a.description
        notes = a.notes
        self.pets = pets
        createdAt = a.createdAt
        updatedAt = a.updatedAt
    }
}
