import AppCore
import Foundation

/// One grid slot of a studio-local day (contract §6 rules 2–5).
struct GridSlot: Sendable, Equatable {
    let start: Date
    let end: Date
    let startTime: WallTime
    let endTime: WallTime
}

/// The booking grid and the time rules of contract §6.
struct SlotGrid: Sendable {
    let settings: StudioSettings
    let durationMinutes: Int

    /// That weekday's hours (nil: closed) and every slot of the day in chronological order.
    func slots(on day: CalendarDay) -> (hours: DayHours?, slots: [GridSlot]) {
        guard let hours = settings.hours.hours(on: Weekday(day)) else { return (nil, []) }
        let clock = settings.clock
        let close = clock.closingInstant(on: day, at: hours.close)
        let length = TimeInterval(durationMinutes * 60)
        var result: [GridSlot] = []
        var minutes = hours.open.minutes
        while minutes < hours.close.minutes && minutes < 1440 {
            let wall = WallTime(minutes: minutes)
            minutes += settings.slotStepMinutes
            // Rule 4: a wall time missing on this day (spring forward) is skipped; a repeated one is its earlier occurrence.
            guard let start = clock.instant(on: day, at: wall) else { continue }
            let end = start.addingTimeInterval(length)
            // Rule 5: the slot must end no later than closing time (elapsed time, not wall time).
            guard end <= close else { continue }
            result.append(GridSlot(start: start, end: end, startTime: wall, endTime: clock.wallTime(of: end)))
        }
        return (hours, result)
    }

    /// The grid slot starting exactly at `start` (rule 12), if any.
    func slot(startingAt start: Date) -> GridSlot? {
        let day = settings.clock.day(of: start)
        return slots(on: day).slots.first { $0.start == start }
    }

    /// Studio-local today.
    func today(now: Date) -> CalendarDay { settings.clock.day(of: now) }

    /// Rule 10: `today ≤ D ≤ today + bookingWindowDays`.
    func isInsideWindow(_ day: CalendarDay, now: Date) -> Bool {
        let today = today(now: now)
        return day >= today && day <= today.adding(days: settings.bookingWindowDays)
    }

    /// Rule 9: `S ≥ now + leadTimeMinutes` (this also excludes every past slot).
    func respectsLeadTime(_ slot: GridSlot, now: Date) -> Bool {
        slot.start >= now.addingTimeInterval(TimeInterval(settings.leadTimeMinutes * 60))
    }

    /// Rule 12 (client bookings): a grid start of its local day, outside no time rule. Nil → `Invalid time slot`.
    func clientBookableSlot(_ start: Date, now: Date) -> GridSlot? {
        guard let slot = slot(startingAt: start) else { return nil }
        guard respectsLeadTime(slot, now: now), isInsideWindow(settings.clock.day(of: start), now: now) else { return nil }
        return slot
    }

    /// Rule 16 (admin bookings): a grid start whose local day is within `today … today + 365`.
    func adminBookableSlot(_ start: Date, now: Date) -> GridSlot? {
        guard let slot = slot(startingAt: start) else { return nil }
        let day = settings.clock.day(of: start)
        let today = today(now: now)
        guard day >= today, day <= today.adding(days: 365) else { return nil }
        return slot
    }
}

/// Occupancy of bays (contract §6 rules 7 and 8).
enum Occupancy {
    /// `remaining = max(0, capacity − m)`, m = the most appointments covering one instant of `[start, end)`;
    /// evaluating `start` and every appointment start inside `(start, end)` suffices.
    static func remaining(start: Date, end: Date, capacity: Int, occupied: [Range<Date>]) -> Int {
        var probes = [start]
        for interval in occupied where interval.lowerBound > start && interval.lowerBound < end {
            probes.append(interval.lowerBound)
        }
        var most = 0
        for t in probes {
            let covering = occupied.reduce(0) { $0 + ($1.lowerBound <= t && t < $1.upperBound ? 1 : 0) }
            most = max(most, covering)
        }
        return max(0, capacity - most)
    }
}
