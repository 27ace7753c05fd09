import AppCore
import Fluent
import Foundation
import SQLKit

/// The clinic console's schedule reads: a practice's appointments in a window with owners, vets, pets and each
/// pet's recording, in one statement.
enum BoardStore {
    struct Row: Decodable, Sendable {
        let id: UUID
        let appointment_date: Date
        let duration_minutes: Int
        let status: String
        let title: String
        let appointment_type: String
        let assigned_vet_user_id: UUID?
        let owner_id: UUID
        let owner_first_name: String
        let owner_last_name: String
        let vet_name: String?
        let pet_id: UUID?
        let pet_name: String?
        let pet_species: String?
        let visit_id: UUID?
        let visit_state: String?
        let visit_source: String?
    }

    static func appointments(practice practiceID: UUID, window: Range<Date>, on db: any Database) async throws -> [Row] {
        try await db.sql.raw("""
            SELECT a.id, a.appointment_date, a.duration_minutes, a.status, a.title, a.appointment_type,
                a.assigned_vet_user_id, o.id AS owner_id, o.first_name AS owner_first_name,
                o.last_name AS owner_last_name, u.full_name AS vet_name,
                p.id AS pet_id, p.name AS pet_name, p.species AS pet_species,
                v.id AS visit_id, v.state AS visit_state, v.source AS visit_source
            FROM appointments a
            JOIN pet_owners o ON o.id = a.pet_owner_id
            LEFT JOIN users u ON u.id = a.assigned_vet_user_id
            LEFT JOIN appointment_pets ap ON ap.appointment_id = a.id
            LEFT JOIN pets p ON p.id = ap.pet_id
            LEFT JOIN visits v ON v.appointment_id = a.id AND v.pet_id = ap.pet_id
            WHERE a.practice_id = \(bind: practiceID)
                AND a.appointment_date >= \(bind: window.lowerBound) AND a.appointment_date < \(bind: window.upperBound)
            ORDER BY a.appointment_date, a.id, ap.position
            """).all(decoding: Row.self)
    }

    struct VetRow: Decodable, Sendable {
        let id: UUID
        let full_name: String
    }

    /// The practice's active vets (lanes of the board and columns' owners on the week calendar).
    static func vets(practice practiceID: UUID, on db: any Database) async throws -> [VetRow] {
        try await db.sql.raw("""
            SELECT id, full_name FROM users
            WHERE practice_id = \(bind: practiceID) AND is_active = \(bind: true) AND role IN ('VET', 'VET_STAFF')
            ORDER BY full_name, id
            """).all(decoding: VetRow.self)
    }

    struct PracticeRow: Decodable, Sendable {
        let id: UUID
        let name: String
        let timezone: String
    }

    static func practices(on db: any Database) async throws -> [PracticeRow] {
        try await db.sql.raw("SELECT id, name, timezone FROM practices ORDER BY name, id").all(decoding: PracticeRow.self)
    }

    static func practice(_ id: UUID, on db: any Database) async throws -> PracticeRow? {
        try await db.sql.raw("SELECT id, name, timezone FROM practices WHERE id = \(bind: id)").first(decoding: PracticeRow.self)
    }
}
