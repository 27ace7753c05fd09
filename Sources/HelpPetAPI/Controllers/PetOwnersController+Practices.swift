import AppCore
import Foundation
import Vapor

extension PetOwnersController {
    /// Makes the owner a client of another practice (ADMIN). Repeating it is a no-op, also when two requests race.
    @Sendable func addPractice(req: Request) async throws -> Response {
        let caller = try req.caller
        try caller.requireAdmin()
        let id = try req.pathID("owner_id", .petOwner)
        let fields = try req.jsonObject()
        let practiceID = try fields.requiredUUID("practice_id", kind: .practice)
        guard let owner = try await req.petOwners.owner(id) else { throw APIError.petOwnerNotFound }
        guard try await req.practices.practice(practiceID) != nil else {
            throw APIError.practiceNotFound
        }
        try await req.petOwners.linkPractice(owner: id, practice: practiceID, now: req.now)
        return try JSONResponse.make(try await req.petOwners.response(for: owner, caller: caller))
    }
}
