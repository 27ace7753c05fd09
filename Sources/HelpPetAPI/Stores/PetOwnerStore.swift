import AppCore
import Fluent
import Foundation
import SQLKit

/// The SQL of the pet owners aggregate (owners and their practice links).
struct PetOwnerStore: Sendable {
    let db: any Database

    func owner(_ id: UUID) async throws -> PetOwner? {
        try await PetOwner.find(id, on: db)
    }

    /// Makes the owner a client of the practice; nothing when it already is one.
    func linkPractice(owner: UUID, practice: UUID, now: Date) async throws {
        try await db.sql.raw("""
            INSERT INTO pet_owner_practices (pet_owner_id, practice_id, created_at)
            VALUES (\(bind: owner), \(bind: practice), \(bind: now))
            ON CONFLICT DO NOTHING
            """).run()
    }

    /// Narrows a list to the clients of a practice.
    static func onlyClients(of practice: UUID, _ builder: QueryBuilder<PetOwner>) {
        builder.filter(.sql(embed: """
            pet_owners.id IN (SELECT pet_owner_id FROM pet_owner_practices WHERE practice_id = \(bind: practice))
            """))
    }

    /// Narrows a list to owners whose name, email or phone contains `escapedPattern` (a LIKE pattern with `!` as
    /// escape). Both sides go through the engine's lower() so the match folds case the same way on either side.
    static func matching(_ escapedPattern: String, _ builder: QueryBuilder<PetOwner>) {
        builder.filter(.sql(embed: """
            (lower(first_name || ' ' || last_name) LIKE lower(\(bind: escapedPattern)) ESCAPE '!'
             OR lower(email) LIKE lower(\(bind: escapedPattern)) ESCAPE '!'
             OR lower(coalesce(phone, '')) LIKE lower(\(bind: escapedPattern)) ESCAPE '!')
            """))
    }

    /// A LIKE pattern matching `text` anywhere; `!` escapes LIKE's wildcards so `50%` or `a_b` match literally.
    static func containsPattern(_ text: String) -> String {
        var escaped = "%"
        for character in text {
            if character == "!" || character == "%" || character == "_" { escaped.append("!") }
            escaped.append(character)
        }
        return escaped + "%"
    }
}
