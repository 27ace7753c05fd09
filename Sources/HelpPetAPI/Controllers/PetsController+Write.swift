import AppCore
import Fluent
import Foundation
import Vapor

extension PetsController {
    static let microchipTaken = APIError.conflict("A pet with this microchip number already exists")

    @Sendable func create(req: Request) async throws -> Response {
        let caller = try req.caller
        try caller.requireStaff()
        let fields = try req.jsonObject()
        let ownerID = try fields.requiredUUID("owner_id", kind: .petOwner)
        let now = req.now
        let input = try PetRequest(fields, creating: true, todayUTC: Self.dayInUTC(now))
        let owner = try await req.visibility.petOwner(ownerID, for: caller)
        if let chip = input.microchipNumber.valueIfPresent {
            try await Self.requireMicrochipFree(chip, excluding: nil, on: req.db)
        }

        // Today in the zone the pet's age is counted in, which is also the default registration day (§4.7).
        let today = try await req.pets.ageToday(ownerID: ownerID, caller: caller, now: now)
        let pet = input.makePet(ownerID: ownerID, registrationDate: input.registrationDate ?? today.description)
        pet.id = UUID()
        pet.createdAt = now
        pet.updatedAt = now
        do {
            try await req.pets.insert(pet)
        } catch where DatabaseFailure.isUniqueViolation(error) {
            // C6 decided a race the pre-check could not see.
            throw Self.microchipTaken
        }
        return try JSONResponse.make(PetResponse(pet, owner: owner, today: today), status: .created)
    }

    @Sendable func update(req: Request) async throws -> Response {
        let caller = try req.caller
        try caller.requireStaff()
        let id = try req.pathID("pet_id", .pet)
        let fields = try req.jsonObject()
        let now = req.now
        let input = try PetRequest(fields, creating: false, todayUTC: Self.dayInUTC(now))
        guard fields.containsAny(of: PetRequest.updatableKeys) else {
            throw APIError.nothingToUpdate
        }
        let pet = try await req.visibility.pet(id, for: caller)
        try fields.requireUnchanged("id", current: id.lowercased)
        try fields.requireUnchanged("owner_id", current: pet.ownerID.lowercased)

        let previousChip = pet.microchipNumber
        input.apply(to: pet)
        if pet.hasChanges {
            if let chip = pet.microchipNumber, chip != previousChip {
                try await Self.requireMicrochipFree(chip, excluding: id, on: req.db)
            }
            pet.updatedAt = now
            do {
                try await req.pets.save(pet)
            } catch where DatabaseFailure.isUniqueViolation(error) {
                throw Self.microchipTaken
            }
        }
        return try JSONResponse.make(try await Self.response(for: pet, caller: caller, now: now, on: req.db))
    }

    /// C6 compares case-insensitively across all practices; the unique index has the final word.
    static func requireMicrochipFree(_ chip: String, excluding petID: UUID?, on db: any Database) async throws {
        if try await PetStore(db: db).microchipTaken(chip, excluding: petID) { throw microchipTaken }
    }

    static func dayInUTC(_ instant: Date) -> CalendarDay {
        CalendarDay(daysSince1970: Int64((instant.timeIntervalSince1970 / 86_400).rounded(.down)))
    }
}
