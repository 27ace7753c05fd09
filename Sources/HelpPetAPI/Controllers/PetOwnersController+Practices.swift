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
        guard let owner = try await PetOwnerStore.owner(id, on: req.db) else { throw APIError.petOwnerNotFound }
        guard try await PracticeStore.practice(practiceID, on: req.db) != nil else {
            throw APIError.practiceNotFound
        }
        try await PetOwnerStore.linkPractice(owner: id, practice: practiceID, now: req.now, on: req.db)
        return try JSONResponse.make(try await PetOwnerStore.response(for: owner, caller: caller, on: req.db))
    }
}
