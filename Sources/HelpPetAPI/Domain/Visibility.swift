import AppCore
import Fluent
import Foundation

/// Visibility rules of contract §2.5: an entity the caller may not see is answered exactly like a missing one.
enum Visibility {
    static func practice(_ id: UUID, for caller: Caller, on db: any Database) async throws -> Practice {
        let notFound = APIError.practiceNotFound
        guard let practice = try await Practice.find(id, on: db) else { throw notFound }
        switch caller.role {
        case .admin: return practice
        case .vet, .vetStaff: guard caller.practiceID == id else { throw notFound }
        case .petOwner:
            guard let owner = caller.petOwnerID, try await isClient(owner: owner, of: id, on: db) else { throw notFound }
        case .pending: throw notFound
        }
        return practice
    }

    static func petOwner(_ id: UUID, for caller: Caller, on db: any Database) async throws -> PetOwner {
        let notFound = APIError.petOwnerNotFound
        let query = PetOwner.query(on: db).filter(\.$id == id)
        switch caller.role {
        case .admin: break
        case .vet, .vetStaff:
            // One statement: the owner joined to its client link with the caller's practice.
            query.join(PetOwnerPractice.self, on: \PetOwner.$id == \PetOwnerPractice.$id.$petOwnerID)
                .filter(PetOwnerPractice.self, \.$id.$practiceID == (caller.practiceID ?? UUID()))
        case .petOwner:
            guard caller.petOwnerID == id else { throw notFound }
        case .pending: throw notFound
        }
        guard let owner = try await query.first() else { throw notFound }
        return owner
    }

    static func pet(_ id: UUID, for caller: Caller, on db: any Database) async throws -> Pet {
        let notFound = APIError.petNotFound
        let query = Pet.query(on: db).filter(\.$id == id)
        switch caller.role {
        case .admin: break
        case .vet, .vetStaff:
            query.join(PetOwnerPractice.self, on: \Pet.$ownerID == \PetOwnerPractice.$id.$petOwnerID)
                .filter(PetOwnerPractice.self, \.$id.$practiceID == (caller.practiceID ?? UUID()))
        case .petOwner:
            query.filter(\.$ownerID == (caller.petOwnerID ?? UUID()))
        case .pending: throw notFound
        }
        guard let pet = try await query.first() else { throw notFound }
        return pet
    }

    static func appointment(_ id: UUID, for caller: Caller, on db: any Database) async throws -> Appointment {
        let notFound = APIError.appointmentNotFound
        guard let appointment = try await Appointment.find(id, on: db) else { throw notFound }
        switch caller.role {
        case .admin: break
        case .vet, .vetStaff: guard appointment.practiceID == caller.practiceID else { throw notFound }
        case .petOwner: guard appointment.petOwnerID == caller.petOwnerID else { throw notFound }
        case .pending: throw notFound
        }
        return appointment
    }

    static func medicalRecord(_ id: UUID, for caller: Caller, on db: any Database) async throws -> MedicalRecord {
        let notFound = APIError.medicalRecordNotFound
        guard let record = try await MedicalRecord.find(id, on: db) else { throw notFound }
        switch caller.role {
        case .admin: break
        case .vet, .vetStaff: guard record.practiceID == caller.practiceID else { throw notFound }
        case .petOwner:
            guard let pet = try await Pet.find(record.petID, on: db), pet.ownerID == caller.petOwnerID else {
                throw notFound
            }
        case .pending: throw notFound
        }
        return record
    }

    /// Members see the visits of their current practice only (the caller is reloaded on every request). There is
    /// no exception for a visit's creator: a member can only create visits in their own practice, so the
    /// exception only ever let a member who moved away keep reading a former practice's visit.
    static func visit(_ id: UUID, for caller: Caller, on db: any Database) async throws -> Visit {
        let notFound = APIError.visitNotFound
        guard let visit = try await Visit.find(id, on: db) else { throw notFound }
        switch caller.role {
        case .admin: break
        case .vet, .vetStaff:
            guard visit.practiceID == caller.practiceID else { throw notFound }
        case .petOwner:
            guard let pet = try await Pet.find(visit.petID, on: db), pet.ownerID == caller.petOwnerID else {
                throw notFound
            }
        case .pending: throw notFound
        }
        return visit
    }

    /// Members see owners that are clients of their practice; owners see themselves.
    static func canSee(ownerID: UUID, caller: Caller, on db: any Database) async throws -> Bool {
        switch caller.role {
        case .admin: return true
        case .vet, .vetStaff:
            guard let practice = caller.practiceID else { return false }
            return try await isClient(owner: ownerID, of: practice, on: db)
        case .petOwner: return caller.petOwnerID == ownerID
        case .pending: return false
        }
    }

    static func isClient(owner: UUID, of practice: UUID, on db: any Database) async throws -> Bool {
        try await PetOwnerPractice.query(on: db)
            .filter(\.$id.$petOwnerID == owner).filter(\.$id.$practiceID == practice).count() > 0
    }
}
