import AppCore
import Fluent
import Foundation
import SQLKit

/// The clinic console's appointment page read: the appointment with its practice, owner, vet, pets and each pet's
/// visit (pending reservations included: the recorder shows an upload under way), scoped to the caller in the SQL,
/// in one statement.
struct AppointmentConsoleStore: Sendable {
    let db: any Database

    struct Row: Decodable, Sendable {
        let id: UUID
        let practiceID: UUID
        let practiceName: String
        let practiceTimezone: String
        let recordingConsentRequired: Bool
        let appointmentDate: Date
        let durationMinutes: Int
        let appointmentType: String
        let status: String
        let title: String
        let description: String?
        let notes: String?
        let assignedVetUserID: UUID?
        let vetName: String?
        let ownerID: UUID
        let ownerFirstName: String
        let ownerLastName: String
        let ownerPhone: String?
        let ownerEmail: String
        let petID: UUID?
        let petName: String?
        let petSpecies: String?
        let petBreed: String?
        let visitID: UUID?
        let visitState: String?
        let visitSource: String?
        let visitMetadata: [String: JSONValue]?

        enum CodingKeys: String, CodingKey {
            case id
            case practiceID = "practice_id"
            case practiceName = "practice_name"
            case practiceTimezone = "practice_timezone"
            case recordingConsentRequired = "recording_consent_required"
            case appointmentDate = "appointment_date"
            case durationMinutes = "duration_minutes"
            case appointmentType = "appointment_type"
            case status, title, description, notes
            case assignedVetUserID = "assigned_vet_user_id"
            case vetName = "vet_name"
            case ownerID = "owner_id"
            case ownerFirstName = "owner_first_name"
            case ownerLastName = "owner_last_name"
            case ownerPhone = "owner_phone"
            case ownerEmail = "owner_email"
            case petID = "pet_id"
            case petName = "pet_name"
            case petSpecies = "pet_species"
            case petBreed = "pet_breed"
            case visitID = "visit_id"
            case visitState = "visit_state"
            case visitSource = "visit_source"
            case visitMetadata = "visit_metadata"
        }
    }

    func appointment(_ id: UUID, for caller: Caller) async throws -> [Row] {
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
