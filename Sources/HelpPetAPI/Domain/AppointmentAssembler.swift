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
        // Only the four columns a summary needs: decoding whole visits (transcript, metadata JSON) was most of the
        // cost of a dashboard (bench/run profile). A pending reservation is not a recording yet (contract §4.10).
        let visitRows = try await db.sql.raw("""
            SELECT id, appointment_id, pet_id, state FROM visits
            WHERE appointment_id IN (\(binds: ids)) AND \(unsafeRaw: VisitFilters.notPendingSQL(on: db))
            """).all()
        var recordings: [String: RecordingSummary] = [:]
        for row in visitRows {
            let appointmentID = try row.decode(column: "appointment_id", as: UUID.self)
            let petID = try row.decode(column: "pet_id", as: UUID.self)
            recordings[key(appointmentID, petID)] = RecordingSummary(
                visit_id: try row.decode(column: "id", as: UUID.self).lowercased,
                state: try row.decode(column: "state", as: String.self))
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
