import AppCore
import Fluent
import Foundation
import SQLKit

/// The clinic console's owner directory: owners matching a search, each with their pets, in one statement, scoped
/// like `GET /pet-owners` (members: their practice's clients; ADMIN: everyone).
struct OwnerDirectoryStore: Sendable {
    let db: any Database

    struct Row: Decodable, Sendable {
        let id: UUID
        let firstName: String
        let lastName: String
        let email: String
        let phone: String?
        let petID: UUID?
        let petName: String?
        let petSpecies: String?
        let petIsActive: Bool?

        enum CodingKeys: String, CodingKey {
            case id
            case firstName = "first_name"
            case lastName = "last_name"
            case email, phone
            case petID = "pet_id"
            case petName = "pet_name"
            case petSpecies = "pet_species"
            case petIsActive = "pet_is_active"
        }
    }

    /// At most `limit` owners (by last name, first name, id), every pet of each (active first, then by name).
    func search(
        _ escapedPattern: String?, clientsOf practice: UUID?, limit: Int
    ) async throws -> [Row] {
        var filter: SQLQueryString = "1 = 1"
        if let practice {
            filter += " AND o.id IN (SELECT pet_owner_id FROM pet_owner_practices WHERE practice_id = \(bind: practice))"
        }
        if let escapedPattern {
            filter += """
                 AND (lower(o.first_name || ' ' || o.last_name) LIKE lower(\(bind: escapedPattern)) ESCAPE '!'
                    OR lower(o.email) LIKE lower(\(bind: escapedPattern)) ESCAPE '!'
                    OR lower(coalesce(o.phone, '')) LIKE lower(\(bind: escapedPattern)) ESCAPE '!'
                    OR EXISTS (SELECT 1 FROM pets sp WHERE sp.owner_id = o.id
                        AND lower(sp.name) LIKE lower(\(bind: escapedPattern)) ESCAPE '!'))
                """
        }
        return try await db.sql.raw("""
            SELECT o.id, o.first_name, o.last_name, o.email, o.phone,
                p.id AS pet_id, p.name AS pet_name, p.species AS pet_species, p.is_active AS pet_is_active
            FROM (SELECT * FROM pet_owners o WHERE \(filter)
                  ORDER BY lower(o.last_name), lower(o.first_name), o.id LIMIT \(bind: limit)) o
            LEFT JOIN pets p ON p.owner_id = o.id
            ORDER BY lower(o.last_name), lower(o.first_name), o.id, p.is_active DESC, lower(p.name), p.id
            """).all(decoding: Row.self)
    }

    struct UserRow: Decodable, Sendable {
        let id: UUID
        let username: String
        let fullName: String
        let email: String
        let role: String
        let practiceID: UUID?
        let isActive: Bool
        let requestedPracticeID: UUID?

        enum CodingKeys: String, CodingKey {
            case id, username
            case fullName = "full_name"
            case email, role
            case practiceID = "practice_id"
            case isActive = "is_active"
            case requestedPracticeID = "requested_practice_id"
        }
    }

    /// Every user (the ADMIN's user list), by username.
    func users() async throws -> [UserRow] {
        try await db.sql.raw("""
            SELECT id, username, full_name, email, role, practice_id, is_active, requested_practice_id FROM users
            ORDER BY lower(username), id
            """).all(decoding: UserRow.self)
    }
}
