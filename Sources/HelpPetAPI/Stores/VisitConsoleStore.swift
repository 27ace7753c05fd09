import AppCore
import Fluent
import Foundation
import SQLKit

/// The clinic console's visit page read: the visit with its pet, owner, practice and appointment, scoped to the
/// caller in the SQL (a visit the caller may not see is not returned), in one statement.
struct VisitConsoleStore: Sendable {
    let db: any Database

    /// The visit's own columns (`VisitRow`, as every visit read decodes them) and what the page shows around it.
    struct Row: Decodable, Sendable {
        let visit: VisitRow
        let context: Context

        init(from decoder: any Decoder) throws {
            visit = try VisitRow(from: decoder)
            context = try Context(from: decoder)
        }
    }

    struct Context: Decodable, Sendable {
        let petName: String
        let petSpecies: String
        let ownerFirstName: String
        let ownerLastName: String
        let practiceName: String
        let practiceTimezone: String
        let appointmentTitle: String?
        let createdByName: String?

        enum CodingKeys: String, CodingKey {
            case petName = "pet_name"
            case petSpecies = "pet_species"
            case ownerFirstName = "owner_first_name"
            case ownerLastName = "owner_last_name"
            case practiceName = "practice_name"
            case practiceTimezone = "practice_timezone"
            case appointmentTitle = "appointment_title"
            case createdByName = "created_by_name"
        }
    }

    func visit(_ id: UUID, for caller: Caller) async throws -> Row? {
        try await db.sql.raw("""
            SELECT \(unsafeRaw: TranscriptStore.visitColumns),
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
