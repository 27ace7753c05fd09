import AppCore
import Fluent
import Foundation

/// Builds PetOwner representations for any number of owners with two queries (their practice links and their
/// active pets), so lists never issue one query per owner.
extension PetOwnerStore {
    func responses(for owners: [PetOwner], caller: Caller) async throws -> [PetOwnerResponse] {
        let ids = owners.compactMap(\.id)
        guard !ids.isEmpty else { return [] }

        // Members only learn about their own practice's link (§4.0); ADMIN and the owner see every link.
        let links = PetOwnerPractice.query(on: db).filter(\.$id.$petOwnerID ~~ ids)
        if caller.isMember { links.filter(\.$id.$practiceID == (caller.practiceID ?? UUID())) }
        var practiceIDs: [UUID: [String]] = [:]
        for link in try await links.all() {
            practiceIDs[link.id!.petOwnerID, default: []].append(link.id!.practiceID.lowercased)
        }

        let pets = try await Pet.query(on: db).filter(\.$ownerID ~~ ids).filter(\.$isActive == true)
            .sort(BinaryOrder.field("name", on: db), .ascending).sort(\.$id).all()
        var petsByOwner: [UUID: [OwnedPetSummary]] = [:]
        for pet in pets {
            petsByOwner[pet.ownerID, default: []].append(
                OwnedPetSummary(id: pet.id!.lowercased, name: pet.name, species: pet.species, breed: pet.breed))
        }

        return owners.map {
            PetOwnerResponse($0, practiceIDs: (practiceIDs[$0.id!] ?? []).sorted(), pets: petsByOwner[$0.id!] ?? [])
        }
    }

    func response(for owner: PetOwner, caller: Caller) async throws -> PetOwnerResponse {
        try await responses(for: [owner], caller: caller)[0]
    }
}
