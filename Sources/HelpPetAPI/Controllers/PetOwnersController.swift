import AppCore
import Foundation
import Vapor

/// Pet owners (clients). Listing, creating and changing are staff actions; an owner may read their own record.
/// The practice association endpoint lives in `+Practices`.
struct PetOwnersController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        // `/pet_owners` is an alias of every `/pet-owners` route, sub-paths included (§1.2).
        for prefix in ["pet-owners", "pet_owners"] {
            let owners = routes.grouped(.constant(prefix))
            owners.get(use: list)
            owners.post(use: create)
            owners.get(":owner_id", use: show)
            owners.put(":owner_id", use: update)
            owners.post(":owner_id", "practices", use: addPractice)
        }
    }

    @Sendable func list(req: Request) async throws -> Response {
        let caller = try req.caller
        try caller.requireStaff()
        let query = req.queryParameters
        let search = query["search"] ?? ""
        if search.unicodeScalars.contains("\u{0}") { throw APIError.badRequest("search contains invalid characters") }
        if search.unicodeScalars.count > 100 { throw APIError.badRequest("search must be at most 100 characters") }
        let practiceID = try query.uuid("practice_id", kind: .practice)
        let page = try query.pagination()

        let clientsOf: UUID?
        if caller.isMember {
            if let practiceID, practiceID != caller.practiceID { throw APIError.practiceNotFound }
            clientsOf = caller.practiceID ?? UUID()
        } else if let practiceID {
            guard try await req.practices.practice(practiceID) != nil else {
                throw APIError.practiceNotFound
            }
            clientsOf = practiceID
        } else {
            clientsOf = nil
        }

        let (owners, total) = try await req.petOwners.list(clientsOf: clientsOf, search: search, page: page)
        return try JSONResponse.page(
            try await req.petOwners.responses(for: owners, caller: caller), total: total)
    }

    @Sendable func show(req: Request) async throws -> Response {
        let caller = try req.caller
        let id = try req.pathID("owner_id", .petOwner)
        let owner = try await req.visibility.petOwner(id, for: caller)
        return try JSONResponse.make(try await req.petOwners.response(for: owner, caller: caller))
    }

    @Sendable func create(req: Request) async throws -> Response {
        let caller = try req.caller
        try caller.requireStaff()
        let fields = try req.jsonObject()
        let input = try PetOwnerRequest(fields, creating: true)
        let requestedPractice = try fields.optionalUUID("practice_id", kind: .practice).valueIfPresent
        let practice = try await req.practices.resolveWithoutPet(requested: requestedPractice, caller: caller)

        let now = req.now
        let owner = input.makeOwner()
        owner.id = UUID()
        owner.userID = nil
        owner.createdAt = now
        owner.updatedAt = now
        try await req.petOwners.insert(owner, clientOf: practice.id!, now: now)
        return try JSONResponse.make(
            try await req.petOwners.response(for: owner, caller: caller), status: .created)
    }

    @Sendable func update(req: Request) async throws -> Response {
        let caller = try req.caller
        try caller.requireStaff()
        let id = try req.pathID("owner_id", .petOwner)
        let fields = try req.jsonObject()
        let input = try PetOwnerRequest(fields, creating: false)
        guard fields.containsAny(of: PetOwnerRequest.updatableKeys) else {
            throw APIError.nothingToUpdate
        }
        let owner = try await req.visibility.petOwner(id, for: caller)
        try fields.requireUnchanged("id", current: id.lowercased)
        try fields.requireUnchanged("user_id", current: owner.userID?.lowercased)

        input.apply(to: owner)
        if owner.hasChanges {
            owner.updatedAt = req.now
            try await req.petOwners.save(owner)
        }
        return try JSONResponse.make(try await req.petOwners.response(for: owner, caller: caller))
    }
}
