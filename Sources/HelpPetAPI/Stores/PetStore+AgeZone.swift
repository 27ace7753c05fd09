import AppCore
import Fluent
import Foundation

extension PetStore {
    /// The zone a pet's age is counted in: the caller's practice for members; for ADMIN and owners the owner's
    /// practice when the owner is a client of exactly one, else UTC (the rule of the registration day, §4.7).
    func ageZone(ownerID: UUID, caller: Caller) async throws -> TimeZone {
        var practiceID: UUID?
        if caller.isMember {
            practiceID = caller.practiceID
        } else {
            let links = try await PetOwnerPractice.query(on: db).filter(\.$id.$petOwnerID == ownerID).limit(2).all()
            if links.count == 1 { practiceID = links[0].id!.practiceID }
        }
        if let practiceID, let practice = try await Practice.find(practiceID, on: db) { return practice.timeZone }
        return TimeZone.utc
    }

    func ageToday(ownerID: UUID, caller: Caller, now: Date) async throws -> CalendarDay {
        LocalDay.day(containing: now, in: try await ageZone(ownerID: ownerID, caller: caller))
    }
}
