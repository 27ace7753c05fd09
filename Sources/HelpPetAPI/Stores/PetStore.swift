import AppCore
import Fluent
import Foundation
import PostgresNIO
import SQLKit

/// Every SQL statement of the pets aggregate that the read path needs.
struct PetStore: Sendable {
    let db: any Database

    /// The columns of `PetReadRow` but its zone: `p` the pet, `o` its owner.
    private static let columns = """
        p.id, p.owner_id, p.name, p.species, p.breed, p.color, p.gender, p.date_of_birth, p.weight,
        p.microchip_number, p.allergies, p.spayed_neutered, p.medications, p.medical_notes,
        p.emergency_contact, p.emergency_phone, p.is_active, p.registration_date, p.created_at, p.updated_at,
        o.first_name AS owner_first_name, o.last_name AS owner_last_name, o.email AS owner_email,
        o.phone AS owner_phone, o.user_id AS owner_user_id
        """

    /// The zone of an owner's pet for ADMIN and owners: the owner's practice when the owner is a client of exactly
    /// one, else NULL (UTC).
    private static let ownerPracticeZone = """
        CASE WHEN (SELECT COUNT(*) FROM pet_owner_practices zc WHERE zc.pet_owner_id = p.owner_id) = 1
        THEN (SELECT zp.timezone FROM pet_owner_practices zl JOIN practices zp ON zp.id = zl.practice_id
              WHERE zl.pet_owner_id = p.owner_id) END
        """

    /// `GET /pets/{id}` in one statement: the pet if the caller may see it (CallerScope), its owner, and the zone
    /// of its age: the caller's practice for members; for ADMIN and owners the owner's practice when the owner is
    /// a client of exactly one, else NULL (UTC) — PetAge's rule.
    func pet(_ id: UUID, for caller: Caller) async throws -> PetReadRow? {
        if let rows = try await db.prepared(PetByID(id: id, reach: BoundReach(caller)), decoding: PetReadRow.self) {
            return rows.first
        }
        let zone: SQLQueryString = caller.isMember
            ? "(SELECT zp.timezone FROM practices zp WHERE zp.id = \(bind: caller.practiceID ?? UUID()))"
            : "\(unsafeRaw: Self.ownerPracticeZone)"
        return try await db.sql.raw("""
            SELECT \(unsafeRaw: Self.columns), \(zone) AS age_zone
            FROM pets p JOIN pet_owners o ON o.id = p.owner_id
            WHERE p.id = \(bind: id) AND \(CallerScope.pet("p", caller: caller))
            """).first(decoding: PetReadRow.self)
    }

    /// `pet(_:for:)` prepared on PostgreSQL. A member's reach is their practice, whose zone the age is told in.
    private struct PetByID: ScopedByID {
        static let sql = """
            SELECT \(PetStore.columns),
                CASE WHEN $2 = 'practice' THEN (SELECT zp.timezone FROM practices zp WHERE zp.id = $3)
                ELSE \(PetStore.ownerPracticeZone) END AS age_zone
            FROM pets p JOIN pet_owners o ON o.id = p.owner_id
            WHERE p.id = $1 AND \(BoundReach.pet("p", kind: 2))
            """
        let id: UUID
        let reach: BoundReach
    }
}

extension PetStore {
    /// The pets with these ids that exist, in no particular order.
    func pets(_ ids: [UUID]) async throws -> [Pet] {
        try await Pet.query(on: db).filter(\.$id ~~ ids).all()
    }
}

extension PetStore {
    /// Whether another pet carries the microchip number, compared case-insensitively across all practices (C6).
    func microchipTaken(_ chip: String, excluding petID: UUID?) async throws -> Bool {
        let query = Pet.query(on: db).filter(.sql(embed: "upper(microchip_number) = \(bind: chip.uppercased())"))
        if let petID { query.filter(\.$id != petID) }
        return try await query.count() > 0
    }
}
