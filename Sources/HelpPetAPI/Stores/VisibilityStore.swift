import AppCore
import FluentKit
import FluentSQL
import Foundation
import SQLKit

/// Loads one row the caller may see, by id, in one statement scoped by `CallerScope` (the caller's `Reach`). A row
/// outside the caller's reach throws the same not-found error as a missing one (contract §2.5).
struct VisibilityStore: Sendable {
    let db: any Database

    func practice(_ id: UUID, for caller: Caller) async throws -> Practice {
        try await one(Practice.self, id, "pr", CallerScope.practice("pr", caller: caller), else: .practiceNotFound)
    }

    func petOwner(_ id: UUID, for caller: Caller) async throws -> PetOwner {
        try await one(PetOwner.self, id, "po", CallerScope.petOwner("po", caller: caller), else: .petOwnerNotFound)
    }

    func pet(_ id: UUID, for caller: Caller) async throws -> Pet {
        try await one(Pet.self, id, "p", CallerScope.pet("p", caller: caller), else: .petNotFound)
    }

    func appointment(_ id: UUID, for caller: Caller) async throws -> Appointment {
        try await one(
            Appointment.self, id, "a", CallerScope.appointment("a", caller: caller), else: .appointmentNotFound)
    }

    func medicalRecord(_ id: UUID, for caller: Caller) async throws -> MedicalRecord {
        try await one(
            MedicalRecord.self, id, "mr", CallerScope.medicalRecord("mr", caller: caller), else: .medicalRecordNotFound)
    }

    func visit(_ id: UUID, for caller: Caller) async throws -> Visit {
        try await one(Visit.self, id, "v", CallerScope.visit("v", caller: caller), else: .visitNotFound)
    }

    /// Whether the owner is a client of the practice (a `pet_owner_practices` link).
    func isClient(owner: UUID, of practice: UUID) async throws -> Bool {
        try await db.sql.raw("""
            SELECT 1 AS found FROM pet_owner_practices WHERE pet_owner_id = \(bind: owner) AND practice_id = \(bind: practice)
            """).first() != nil
    }

    private func one<Row: Model>(
        _ type: Row.Type, _ id: UUID, _ alias: String, _ scope: SQLQueryString, else notFound: APIError
    ) async throws -> Row {
        let statement: SQLQueryString = """
            SELECT \(unsafeRaw: alias).* FROM \(unsafeRaw: Row.schema) \(unsafeRaw: alias)
            WHERE \(unsafeRaw: alias).id = \(bind: id) AND \(scope)
            """
        guard let row = try await db.sql.raw(statement).first() else { throw notFound }
        return try row.decode(fluentModel: Row.self)
    }
}
