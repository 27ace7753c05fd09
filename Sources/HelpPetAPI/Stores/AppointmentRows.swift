import AppCore
import Foundation

/// One row of an appointment read: the appointment joined to one of its pets (in `pet_ids` order) and that pet's
/// recording. An appointment without pets is one row whose pet columns are NULL.
struct AppointmentPetRow: Decodable, Sendable {
    let id: UUID
    let practiceID: UUID
    let petOwnerID: UUID
    let assignedVetUserID: UUID?
    let appointmentDate: Date
    let durationMinutes: Int
    let appointmentType: String
    let status: String
    let title: String
    let description: String?
    let notes: String?
    let createdAt: Date
    let updatedAt: Date
    let petID: UUID?
    let petName: String?
    let petSpecies: String?
    let petBreed: String?
    let visitID: UUID?
    let visitState: String?

    enum CodingKeys: String, CodingKey {
        case id
        case practiceID = "practice_id"
        case petOwnerID = "pet_owner_id"
        case assignedVetUserID = "assigned_vet_user_id"
        case appointmentDate = "appointment_date"
        case durationMinutes = "duration_minutes"
        case appointmentType = "appointment_type"
        case status, title, description, notes
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case petID = "pet_id"
        case petName = "pet_name"
        case petSpecies = "pet_species"
        case petBreed = "pet_breed"
        case visitID = "visit_id"
        case visitState = "visit_state"
    }

    var petSummary: PetSummaryResponse? {
        guard let petID, let petName, let petSpecies else { return nil }
        let recording = visitID.map { RecordingSummary(visitID: $0.lowercased, state: visitState ?? "") }
        return PetSummaryResponse(
            id: petID.lowercased, name: petName, species: petSpecies, breed: petBreed, recording: recording)
    }
}

/// One availability window of a vet's day (M0115), as the dashboard lists it.
struct AvailabilityWindowRow: Decodable, Sendable {
    let availabilityID: UUID
    let startAt: Date
    let endAt: Date
    let availabilityType: String
    let availabilityNotes: String?
    let availabilityCreatedAt: Date
    let availabilityUpdatedAt: Date

    enum CodingKeys: String, CodingKey {
        case availabilityID = "availability_id"
        case startAt = "start_at"
        case endAt = "end_at"
        case availabilityType = "availability_type"
        case availabilityNotes = "availability_notes"
        case availabilityCreatedAt = "availability_created_at"
        case availabilityUpdatedAt = "availability_updated_at"
    }
}

/// A vet's local day as one statement answers it: the appointments (each with its pets) and the active windows.
struct VetDayRows: Sendable {
    let appointments: [AppointmentResponse]
    let windows: [AvailabilityWindowRow]
}

extension AppointmentResponse {
    /// Groups joined rows (ordered by appointment, then pet position) into appointments, keeping their order.
    static func grouping(_ rows: [AppointmentPetRow]) -> [AppointmentResponse] {
        var order: [UUID] = []
        var first: [UUID: AppointmentPetRow] = [:]
        var pets: [UUID: [PetSummaryResponse]] = [:]
        for row in rows {
            if first[row.id] == nil {
                order.append(row.id)
                first[row.id] = row
            }
            if let pet = row.petSummary { pets[row.id, default: []].append(pet) }
        }
        return order.map { AppointmentResponse(first[$0]!, pets: pets[$0] ?? []) }
    }
}
