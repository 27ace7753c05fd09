import AppCore
import Fluent
import Foundation
import SQLKit

/// The clinic console's visit page read: the visit with its pet, owner, practice and appointment, scoped to the
/// caller in the SQL (a visit the caller may not see is not returned), in one statement.
enum VisitConsoleStore {
    struct Row: Decodable, Sendable {
        let id: UUID
        let pet_id: UUID
        let practice_id: UUID
        let appointment_id: UUID?
        let source: String
        let state: String
        let visit_date: Date
        let full_text: String
        let summary: String?
        let storage_key: String?
        let metadata: [String: JSONValue]
        let created_by: UUID
        let created_at: Date
        let updated_at: Date
        let pet_name: String
        let pet_species: String
        let owner_first_name: String
        let owner_last_name: String
        let practice_name: String
        let practice_timezone: String
        let appointment_title: String?
        let created_by_name: String?
    }

    static func visit(_ id: UUID, for caller: Caller, on db: any Database) async throws -> Row? {
        try await db.sql.raw("""
            SELECT v.id, v.pet_id, v.practice_id, v.appointment_id, v.source, v.state, v.visit_date, v.full_text,
                v.summary, v.storage_key, v.metadata, v.created_by, v.created_at, v.updated_at,
                p.name AS pet_name, p.species AS pet_species,
                o.first_name AS owner_first_name, o.last_name AS owner_last_name,
                pr.name AS practice_name, pr.timezone AS practice_timezone,
                a.title AS appointment_title, u.full_name AS created_by_name
            FROM visits v
            JOIN pets p ON p.id = v.pet_id
            JOIN pet_owners o ON o.id = p.owner_id
            JOIN practices pr ON pr.id = v.practice_id
            LEFT JOIN appointments a ON a.id = v.appointment_id
            LEFT JOIN users u ON u.id = v.created_by
            WHERE v.id = \(bind: id) AND \(CallerScope.visit("v", caller: caller))
            """).first(decoding: Row.self)
    }
}
