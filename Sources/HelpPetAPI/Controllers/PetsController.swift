import AppCore
import Fluent
import Foundation
import Vapor

/// Pets: read by every role within its visibility; created, changed and deactivated by staff (`+Write`).
/// Pets are never deleted, so their appointments, visits and records stay readable.
struct PetsController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        let pets = routes.grouped("pets")
        pets.post(use: create)
        pets.get(":pet_id", use: show)
        pets.put(":pet_id", use: update)
        pets.delete(":pet_id", use: deactivate)
        pets.get("owner", ":owner_id", use: listForOwner)
    }

    @Sendable func show(req: Request) async throws -> Response {
        let caller = try req.caller
        let id = try req.pathID("pet_id", .pet)
        // One statement: the pet scoped to the caller, its owner and the zone of its age (PetStore).
        guard let row = try await req.pets.pet(id, for: caller) else { throw APIError.petNotFound }
        let zone = row.ageZone.map(TimeZone.stored) ?? .utc
        return try JSONResponse.make(PetResponse(
            row.pet, owner: PetOwnerBrief(row.owner, id: row.pet.ownerID),
            today: LocalDay.day(containing: req.now, in: zone)))
    }

    @Sendable func listForOwner(req: Request) async throws -> Response {
        let caller = try req.caller
        let ownerID = try req.pathID("owner_id", .petOwner)
        let query = req.queryParameters
        let includeInactive = try query.bool("include_inactive", default: false)
        let page = try query.pagination()
        let owner = try await req.visibility.petOwner(ownerID, for: caller)

        let (pets, total) = try await req.pets.listForOwner(
            ownerID, includeInactive: includeInactive, page: page)
        let today = try await req.pets.ageToday(ownerID: ownerID, caller: caller, now: req.now)
        return try JSONResponse.page(pets.map { PetResponse($0, owner: owner, today: today) }, total: total)
    }

    /// DELETE deactivates: the pet stays, with its history, and can be reactivated through PUT.
    @Sendable func deactivate(req: Request) async throws -> Response {
        let caller = try req.caller
        try caller.requireStaff()
        let id = try req.pathID("pet_id", .pet)
        let pet = try await req.visibility.pet(id, for: caller)
        if pet.isActive {
            pet.isActive = false
            pet.updatedAt = req.now
            try await req.pets.save(pet)
        }
        return try JSONResponse.make(try await Self.response(for: pet, caller: caller, now: req.now, on: req.db))
    }

    static func response(for pet: Pet, caller: Caller, now: Date, on db: any Database) async throws -> PetResponse {
        // The foreign key guarantees the owner; a miss would mean the row vanished mid-request.
        guard let owner = try await PetStore(db: db).owner(of: pet) else { throw APIError.petNotFound }
        return PetResponse(
            pet, owner: owner, today: try await PetStore(db: db).ageToday(ownerID: pet.ownerID, caller: caller, now: now))
    }
}
