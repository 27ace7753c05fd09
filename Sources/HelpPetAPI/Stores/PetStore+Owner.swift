import AppCore
import Fluent
import Foundation

extension PetStore {
    /// `GET /pet-owners/{id}/pets`: the owner's pets (active only unless `includeInactive`) by name in byte order,
    /// then id, with the total.
    func listForOwner(_ ownerID: UUID, includeInactive: Bool, page: Pagination)
        async throws -> (pets: [Pet], total: Int)
    {
        let builder = Pet.query(on: db).filter(\.$ownerID == ownerID)
        if !includeInactive { builder.filter(\.$isActive == true) }
        let total = try await builder.count()
        let pets = try await builder.sort(BinaryOrder.field("name", on: db), .ascending).sort(\.$id)
            .range(page.range).all()
        return (pets, total)
    }

    /// The owner of a pet (the foreign key guarantees one; nil only if the row vanished meanwhile).
    func owner(of pet: Pet) async throws -> PetOwner? {
        try await PetOwner.find(pet.ownerID, on: db)
    }

    func insert(_ pet: Pet) async throws {
        try await pet.create(on: db)
    }

    /// Saves the changed fields of a pet read as a tracked model.
    func save(_ pet: Pet) async throws {
        try await pet.update(on: db)
    }
}
