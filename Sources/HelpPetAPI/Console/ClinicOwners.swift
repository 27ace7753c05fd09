import AppCore
import Fluent
import Foundation
import Vapor

package struct ConsolePetBrief: Sendable {
    package let id: UUID
    package let name: String
    package let species: String
    package let isActive: Bool
}

package struct ConsoleOwner: Sendable {
    package let id: UUID
    package let firstName: String
    package let lastName: String
    package let email: String
    package let phone: String?
    package let address: String?
    package let pets: [ConsolePetBrief]

    package var name: String { "\(firstName) \(lastName)" }
}

/// The owner directory of the clinic console, scoped like `GET /pet-owners`.
package enum ClinicOwners {
    package static func search(request: Request, text: String) async throws -> [ConsoleOwner] {
        let caller = try request.caller
        try caller.requireStaff()
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.unicodeScalars.count > 100 { throw APIError.badRequest("search must be at most 100 characters") }
        let pattern = trimmed.isEmpty ? nil : PetOwnerStore.containsPattern(trimmed)
        let rows = try await OwnerDirectoryStore(db: request.db).search(
            pattern, clientsOf: caller.isMember ? (caller.practiceID ?? UUID()) : nil, limit: 100)
        var order: [UUID] = []
        var owners: [UUID: OwnerDirectoryStore.Row] = [:]
        var pets: [UUID: [ConsolePetBrief]] = [:]
        for row in rows {
            if owners[row.id] == nil { order.append(row.id); owners[row.id] = row }
            if let petID = row.petID, let name = row.petName {
                pets[row.id, default: []].append(ConsolePetBrief(
                    id: petID, name: name, species: row.petSpecies ?? "", isActive: row.petIsActive ?? true))
            }
        }
        return order.map { id in
            let row = owners[id]!
            return ConsoleOwner(id: id, firstName: row.firstName, lastName: row.lastName, email: row.email,
                                phone: row.phone, address: nil, pets: pets[id] ?? [])
        }
    }

    /// One owner the caller may see (404 as the API otherwise), with every pet.
    package static func owner(request: Request, id: UUID) async throws -> ConsoleOwner {
        let caller = try request.caller
        let owner = try await VisibilityStore(db: request.db).petOwner(id, for: caller)
        let pets = try await Pet.query(on: request.db).filter(\.$ownerID == id).all()
            .sorted { ($0.isActive ? 0 : 1, $0.name.lowercased()) < ($1.isActive ? 0 : 1, $1.name.lowercased()) }
        return ConsoleOwner(
            id: id, firstName: owner.firstName, lastName: owner.lastName, email: owner.email, phone: owner.phone,
            address: owner.address,
            pets: pets.map { ConsolePetBrief(id: $0.id!, name: $0.name, species: $0.species, isActive: $0.isActive) })
    }
}
