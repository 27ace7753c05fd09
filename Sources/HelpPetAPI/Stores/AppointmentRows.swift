import AppCore
import Foundation

/// One row of an appointment read: the appointment joined to one of its pets (in `pet_ids` order) and that pet's
/// recording. An appointment without pets is one row whose pet columns are NULL.
struct AppointmentPetRow: Decodable, Sendable {
    let id: UUID
    let practice_id: UUID
    let pet_owner_id: UUID
    let assigned_vet_user_id: UUID?
    let appointment_date: Date
    let duration_minutes: Int
    let appointment_type: String
    let status: String
    let title: String
    let description: String?
    let notes: String?
    let created_at: Date
    let updated_at: Date
    let pet_id: UUID?
    let pet_name: String?
    let pet_species: String?
    let pet_breed: String?
    let visit_id: UUID?
    let visit_state: String?

    var petSummary: PetSummaryResponse? {
        guard let pet_id, let pet_name, let pet_species else { return nil }
        let recording = visit_id.map { RecordingSummary(visit_id: $0.lowercased, state: visit_state ?? "") }
        return PetSummaryResponse(
            id: pet_id.lowercased, name: pet_name, species: pet_species, breed: pet_breed, recording: recording)
    }
}

/// One availability window of a vet's day (M0115), as the dashboard lists it.
struct AvailabilityWindowRow: Decodable, Sendable {
    let availability_id: UUID
    let start_at: Date
    let end_at: Date
    let availability_type: String
    let availability_notes: String?
    let availability_created_at: Date
    let availability_updated_at: Date
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
