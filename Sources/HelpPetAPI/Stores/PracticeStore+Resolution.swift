import AppCore
import Fluent
import Foundation

/// Which practice a created record belongs to (contract §2.5, "Practice resolution").
extension PracticeStore {
    /// Endpoints without a pet (`POST /appointments`, `POST /pet-owners`): members always use their own practice,
    /// ADMIN must name one.
    func resolveWithoutPet(requested: UUID?, caller: Caller) async throws -> Practice {
        let notFound = APIError.practiceNotFound
        if caller.isMember {
            guard let own = caller.practiceID, requested == nil || requested == own else { throw notFound }
            guard let practice = try await Practice.find(own, on: db) else { throw notFound }
            return practice
        }
        guard let requested else { throw APIError.badRequest("practice_id is required") }
        guard let practice = try await Practice.find(requested, on: db) else { throw notFound }
        return practice
    }

    /// Endpoints about a pet (records, manual transcripts, initiate without appointment): members use their own
    /// practice; ADMIN names one the pet's owner is a client of, or gets the owner's only practice.
    func resolveForPet(_ pet: Pet, requested: UUID?, caller: Caller) async throws -> Practice {
        let notFound = APIError.practiceNotFound
        if caller.isMember {
            guard let own = caller.practiceID, requested == nil || requested == own else { throw notFound }
            guard let practice = try await Practice.find(own, on: db) else { throw notFound }
            return practice
        }
        if let requested {
            guard let practice = try await Practice.find(requested, on: db) else { throw notFound }
            guard try await VisibilityStore(db: db).isClient(owner: pet.ownerID, of: requested) else {
                throw APIError.notAClientOfPractice
            }
            return practice
        }
        let links = try await PetOwnerPractice.query(on: db).filter(\.$id.$petOwnerID == pet.ownerID).all()
        guard links.count == 1, let practice = try await Practice.find(links[0].id!.practiceID, on: db) else {
            throw APIError.badRequest(
                "practice_id is required because the pet's owner is not a client of exactly one practice")
        }
        return practice
    }
}
