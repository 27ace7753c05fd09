import AppCore
import Fluent
import Foundation
import SQLKit

/// The clinic console's appointment page read: the appointment with its practice, owner, vet, pets and each pet's
/// visit (pending reservations included: the recorder shows an upload under way), scoped to the caller in the SQL,
/// in one statement.
enum AppointmentConsoleStore {
    struct Row: Decodable, Sendable {
        let id: UUID
        let practice_id: UUID
        let practice_name: String
        let practice_timezone: String
        let recording_consent_required: Bool
        let appointment_date: Date
        let duration_minutes: Int
        let appointment_type: String
        let status: String
        let title: String
        let description: String?
        let notes: String?
        let assigned_vet_user_id: UUID?
        let vet_name: String?
        let owner_id: UUID
        let owner_first_name: String
        let owner_last_name: String
        let owner_phone: String?
        let owner_email: String
        let pet_id: UUID?
        let pet_name: String?
        let pet_species: String?
        let pet_breed: String?
        let visit_id: UUID?
        let visit_state: String?
        let visit_source: String?
        let visit_metadata: [String: JSONValue]?
    }

    static func appointment(_ id: UUID, for caller: Caller, on db: any Database) async throws -> [Row] {
        try await db.sql.raw("""
            SELECT a.id, a.practice_id, pr.name AS practice_name, pr.timezone AS practice_timezone,
                pr.recording_consent_required,
                a.appointment_date, a.duration_minutes, a.appointment_type, a.status, a.title, a.description, a.notes,
                a.assigned_vet_user_id, u.full_name AS vet_name,
                o.id AS owner_id, o.first_name AS owner_first_name, o.last_name AS owner_last_name,
                o.phone AS owner_phone, o.email AS owner_email,
                p.id AS pet_id, p.name AS pet_name, p.species AS pet_species, p.breed AS pet_breed,
                v.id AS visit_id, v.state AS visit_state, v.source AS visit_source, v.metadata AS visit_metadata
            FROM appointments a
            JOIN practices pr ON pr.id = a.practice_id
            JOIN pet_owners o ON o.id = a.pet_owner_id
            LEFT JOIN users u ON u.id = a.assigned_vet_user_id
            LEFT JOIN appointment_pets ap ON ap.appointment_id = a.id
            LEFT JOIN pets p ON p.id = ap.pet_id
            LEFT JOIN visits v ON v.appointment_id = a.id AND v.pet_id = ap.pet_id
            WHERE a.id = \(bind: id) AND \(CallerScope.appointment("a", caller: caller))
            ORDER BY ap.position
            """).all(decoding: Row.self)
    }
}
