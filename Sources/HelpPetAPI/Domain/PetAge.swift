import AppCore
import Fluent
import Foundation

/// `age_years` of a pet: whole years between its birth day and today, counted in the practice's zone, so a pet
/// turns one on its birthday in the clinic's calendar (a 29 February birthday counts on 1 March in other years).
enum PetAge {
    static func wholeYears(born: CalendarDay, today: CalendarDay) -> Int {
        var years = today.year - born.year
        if (today.month, today.day) < (born.month, born.day) { years -= 1 }
        return max(0, years)
    }

    /// The zone a pet's age is counted in: the caller's practice for members; for ADMIN and owners the owner's
    /// practice when the owner is a client of exactly one, else UTC (the rule of the registration day, §4.7).
    static func zone(ownerID: UUID, caller: Caller, on db: any Database) async throws -> TimeZone {
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

    static func today(ownerID: UUID, caller: Caller, now: Date, on db: any Database) async throws -> CalendarDay {
        LocalDay.day(containing: now, in: try await zone(ownerID: ownerID, caller: caller, on: db))
    }
}
