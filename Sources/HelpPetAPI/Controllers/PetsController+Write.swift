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
        let owner = try await VisibilityStore(db: req.db).petOwner(ownerID, for: caller)
        if let chip = input.microchipNumber.valueIfPresent {
            try await Self.requireMicrochipFree(chip, excluding: nil, on: req.db)
        }

        var registration = input.registrationDate
        if registration == nil {
            registration = try await Self.defaultRegistrationDay(ownerID: ownerID, caller: caller, now: now, on: req.db)
                .description
        }
        let pet = input.makePet(ownerID: ownerID, registrationDate: registration!)
        pet.id = UUID()
        pet.createdAt = now
        pet.updatedAt = now
        do {
            try await pet.create(on: req.db)
        } catch where DatabaseFailure.isUniqueViolation(error) {
            // C6 decided a race the pre-check could not see.
            throw Self.microchipTaken
        }
        let today = try await PetStore.ageToday(ownerID: ownerID, caller: caller, now: now, on: req.db)
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
        let pet = try await VisibilityStore(db: req.db).pet(id, for: caller)
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
                try await pet.update(on: req.db)
            } catch where DatabaseFailure.isUniqueViolation(error) {
                throw Self.microchipTaken
            }
        }
        return try JSONResponse.make(try await Self.response(for: pet, caller: caller, now: now, on: req.db))
    }

    /// C6 compares case-insensitively across all practices; the unique index has the final word.
    static func requireMicrochipFree(_ chip: String, excluding petID: UUID?, on db: any Database) async throws {
        if try await PetStore.microchipTaken(chip, excluding: petID, on: db) { throw microchipTaken }
    }

    /// Today in the caller's practice zone; for ADMIN the owner's zone when the owner has exactly one practice,
    /// else UTC (§4.7).
    static func defaultRegistrationDay(ownerID: UUID, caller: Caller, now: Date, on db: any Database) async throws
        -> CalendarDay
    {
        var practiceID: UUID?
        if caller.isMember {
            practiceID = caller.practiceID
        } else {
            let links = try await PetOwnerPractice.query(on: db).filter(\.$id.$petOwnerID == ownerID).limit(2).all()
            if links.count == 1 { practiceID = links[0].id!.practiceID }
        }
        var zone = TimeZone.utc
        if let practiceID, let practice = try await Practice.find(practiceID, on: db) { zone = practice.timeZone }
        return LocalDay.day(containing: now, in: zone)
    }

    static func dayInUTC(_ instant: Date) -> CalendarDay {
        CalendarDay(daysSince1970: Int64((instant.timeIntervalSince1970 / 86_400).rounded(.down)))
    }
}
