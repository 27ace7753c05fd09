import AppCore
import Fluent
import Foundation
import SQLKit

/// Builds Appointment representations for any number of appointments with two queries (their pets, and the
/// recordings of those pets), so lists and dashboards never issue one query per appointment.
enum AppointmentAssembler {
    static func responses(for appointments: [Appointment], on db: any Database) async throws -> [AppointmentResponse] {
        let ids = appointments.compactMap(\.id)
        guard !ids.isEmpty else { return [] }

        let petRows = try await db.sql.raw("""
            SELECT ap.appointment_id, ap.position, p.id, p.name, p.species, p.breed
            FROM appointment_pets ap JOIN pets p ON p.id = ap.pet_id
            WHERE ap.appointment_id IN (\(binds: ids))
            ORDER BY ap.position
            """).all()
        let visits = try await Visit.query(on: db).filter(\.$appointmentID ~~ ids).all()

        // A pending reservation is not a recording yet (contract §4.10).
        var recordings: [String: RecordingSummary] = [:]
        for visit in visits where !visit.isPending {
            guard let appointmentID = visit.appointmentID else { continue }
            recordings[key(appointmentID, visit.petID)] = RecordingSummary(
                visit_id: visit.id!.lowercased, state: visit.stateValue)
        }

        var petsByAppointment: [UUID: [PetSummaryResponse]] = [:]
        for row in petRows {
            let appointmentID = try row.decode(column: "appointment_id", as: UUID.self)
            let petID = try row.decode(column: "id", as: UUID.self)
            petsByAppointment[appointmentID, default: []].append(
                PetSummaryResponse(
                    id: petID.lowercased,
                    name: try row.decode(column: "name", as: String.self),
                    species: try row.decode(column: "species", as: String.self),
                    breed: try row.decode(column: "breed", as: String?.self),
                    recording: recordings[key(appointmentID, petID)]))
        }
        return appointments.map { AppointmentResponse($0, pets: petsByAppointment[$0.id!] ?? []) }
    }

    static func response(for appointment: Appointment, on db: any Database) async throws -> AppointmentResponse {
        try await responses(for: [appointment], on: db)[0]
    }

    private static func key(_ appointment: UUID, _ pet: UUID) -> String { appointment.uuidString + pet.uuidString }
}
