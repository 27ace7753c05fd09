import AppCore
import Fluent
import Foundation

extension PetOwnerStore {
    /// `GET /pet-owners`: one page of owners (the clients of `clientsOf` when given; those whose name, email or phone
    /// contains `search` when it is not empty) by last then first name in byte order of their lowercase, then id,
    /// with the total.
    func list(clientsOf: UUID?, search: String, page: Pagination) async throws
        -> (owners: [PetOwner], total: Int)
    {
        let builder = PetOwner.query(on: db)
        if let clientsOf { Self.onlyClients(of: clientsOf, builder) }
        if !search.isEmpty { Self.matching(Self.containsPattern(search), builder) }
        let total = try await builder.count()
        let owners = try await builder
            .sort(BinaryOrder.field("lower(last_name)", on: db), .ascending)
            .sort(BinaryOrder.field("lower(first_name)", on: db), .ascending)
            .sort(\.$id)
            .range(page.range).all()
        return (owners, total)
    }

    /// A new owner and its link to the practice, in one write transaction: the link is what makes the owner visible
    /// to the practice's members (§4.6).
    func insert(_ owner: PetOwner, clientOf practiceID: UUID, now: Date) async throws {
        let link = PetOwnerPractice()
        link.id = .init(petOwnerID: owner.id!, practiceID: practiceID)
        link.createdAt = now
        try await db.writeTransaction { tx in
            try await owner.create(on: tx)
            try await link.create(on: tx)
        }
    }

    /// Saves the changed fields of an owner read as a tracked model.
    func save(_ owner: PetOwner) async throws {
        try await owner.update(on: db)
    }
}
