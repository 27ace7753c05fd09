import AppCore
@testable import AutoDetailAPI
import Foundation
import Testing

/// The grid and time rules of contract §6 computed directly (no database): the worked examples, including DST days.
@Suite struct SlotGridTests {
    static func settings(_ zone: String, open: String = "09:00", close: String = "21:00", step: Int = 30, capacity: Int = 2)
        -> StudioSettings
    {
        var s = StudioSettings.defaults(now: Date())
        s.timezone = zone
        s.slotStepMinutes = step
        s.capacity = capacity
        s.hours = WeekHours(days: Dictionary(uniqueKeysWithValues: Weekday.allCases.map {
            ($0, DayHours(open: WallTime(open, allowMidnightEnd: false)!, close: WallTime(close, allowMidnightEnd: true)!))
        }))
        return s
    }

    static func starts(_ grid: SlotGrid, _ day: String) -> [String] {
        grid.slots(on: CalendarDay(day)!).slots.map { WireTime.format($0.start) }
    }

    @Test func defaultsGive23CarWashingSlots() {
        let grid = SlotGrid(settings: Self.settings("Europe/Moscow"), durationMinutes: 60)
        let slots = grid.slots(on: CalendarDay("2025-03-14")!).slots
        #expect(slots.count == 23)
        #expect(WireTime.format(slots.first!.start) == "2025-03-14T06:00:00Z")
        #expect(WireTime.format(slots.first!.end) == "2025-03-14T07:00:00Z")
        #expect(slots.first!.startTime.text == "09:00" && slots.first!.endTime.text == "10:00")
        #expect(WireTime.format(slots.last!.start) == "2025-03-14T17:00:00Z")
        #expect(WireTime.format(slots.last!.end) == "2025-03-14T18:00:00Z")
        #expect(slots.last!.startTime.text == "20:00" && slots.last!.endTime.text == "21:00")
    }

    @Test func ceramicCoatingGives9Slots() {
        let grid = SlotGrid(settings: Self.settings("Europe/Moscow"), durationMinutes: 480)
        let slots = grid.slots(on: CalendarDay("2025-03-14")!).slots
        #expect(slots.count == 9)
        #expect(slots.map(\.startTime.text).first == "09:00")
        #expect(slots.map(\.startTime.text).last == "13:00")
        #expect(slots.last!.endTime.text == "21:00")
    }

    @Test func berlinNineOClockAcrossBothDSTChanges() {
        let grid = SlotGrid(settings: Self.settings("Europe/Berlin"), durationMinutes: 60)
        #expect(Self.starts(grid, "2025-03-29").first == "2025-03-29T08:00:00Z")
        #expect(Self.starts(grid, "2025-03-30").first == "2025-03-30T07:00:00Z")
        #expect(Self.starts(grid, "2025-10-25").first == "2025-10-25T07:00:00Z")
        #expect(Self.starts(grid, "2025-10-26").first == "2025-10-26T08:00:00Z")
    }

    @Test func springForwardDaySkipsTheMissingHour() {
        let grid = SlotGrid(settings: Self.settings("Europe/Berlin", open: "00:00", close: "24:00", step: 60), durationMinutes: 60)
        let slots = grid.slots(on: CalendarDay("2025-03-30")!).slots
        #expect(slots.count == 23)
        #expect(!slots.map(\.startTime.text).contains("02:00"))
        #expect(WireTime.format(slots.first { $0.startTime.text == "01:00" }!.start) == "2025-03-30T00:00:00Z")
        #expect(WireTime.format(slots.first { $0.startTime.text == "03:00" }!.start) == "2025-03-30T01:00:00Z")
        #expect(slots.last!.startTime.text == "23:00")
        #expect(WireTime.format(slots.last!.start) == "2025-03-30T21:00:00Z")
        #expect(slots.last!.endTime.text == "00:00", "the last slot ends at the start of the next day")
    }

    @Test func fallBackDayUsesTheEarlierOccurrence() {
        let grid = SlotGrid(settings: Self.settings("Europe/Berlin", open: "00:00", close: "24:00", step: 60), durationMinutes: 60)
        let slots = grid.slots(on: CalendarDay("2025-10-26")!).slots
        #expect(slots.count == 24)
        #expect(WireTime.format(slots.first { $0.startTime.text == "02:00" }!.start) == "2025-10-26T00:00:00Z")
        #expect(grid.slot(startingAt: Fixture.instant("2025-10-26T01:00:00Z")) == nil, "the later 02:00 is not a slot")
        #expect(grid.slot(startingAt: Fixture.instant("2025-10-26T00:00:00Z")) != nil)
        #expect(WireTime.format(slots.last!.end) == "2025-10-26T23:00:00Z")
    }

    @Test func leadTimeAndWindowOfTheWorkedExample() {
        let grid = SlotGrid(settings: Self.settings("Europe/Moscow"), durationMinutes: 60)
        let now = Fixture.exampleNow
        let day = grid.slots(on: Fixture.exampleDay).slots
        let at1030 = day.first { $0.startTime.text == "10:30" }!
        let at1100 = day.first { $0.startTime.text == "11:00" }!
        #expect(!grid.respectsLeadTime(at1030, now: now))
        #expect(grid.respectsLeadTime(at1100, now: now))
        #expect(grid.isInsideWindow(CalendarDay("2025-04-13")!, now: now))
        #expect(!grid.isInsideWindow(CalendarDay("2025-04-14")!, now: now))
        #expect(!grid.isInsideWindow(CalendarDay("2025-03-13")!, now: now))
    }

    @Test func remainingCountsOnlySimultaneousBookings() {
        let t = Fixture.instant
        // One booking 11:00–12:00 and two starting 12:00 (12:00–13:00, 12:00–15:00), capacity 2 (§4.3 example).
        let occupied = [
            t("2025-03-14T08:00:00Z")..<t("2025-03-14T09:00:00Z"),
            t("2025-03-14T09:00:00Z")..<t("2025-03-14T10:00:00Z"),
            t("2025-03-14T09:00:00Z")..<t("2025-03-14T12:00:00Z"),
        ]
        let remaining = { (start: String, end: String) in
            Occupancy.remaining(start: t(start), end: t(end), capacity: 2, occupied: occupied)
        }
        #expect(remaining("2025-03-14T06:00:00Z", "2025-03-14T07:00:00Z") == 2)
        #expect(remaining("2025-03-14T08:00:00Z", "2025-03-14T09:00:00Z") == 1, "touching intervals do not overlap")
        #expect(remaining("2025-03-14T08:30:00Z", "2025-03-14T09:30:00Z") == 0)
        #expect(remaining("2025-03-14T07:30:00Z", "2025-03-14T08:30:00Z") == 1)
        // Two bookings that never run at the same time use one bay.
        let apart = [t("2025-03-14T08:00:00Z")..<t("2025-03-14T08:30:00Z"), t("2025-03-14T08:30:00Z")..<t("2025-03-14T09:00:00Z")]
        #expect(Occupancy.remaining(start: t("2025-03-14T08:00:00Z"), end: t("2025-03-14T09:00:00Z"), capacity: 2, occupied: apart) == 1)
    }

    @Test func closedDaysAndShortDays() {
        var settings = Self.settings("Europe/Moscow")
        settings.hours.days[.sun] = nil
        let grid = SlotGrid(settings: settings, durationMinutes: 60)
        let sunday = grid.slots(on: CalendarDay("2025-03-16")!)
        #expect(sunday.hours == nil && sunday.slots.isEmpty)
        var short = Self.settings("Europe/Moscow", open: "09:00", close: "09:30")
        short.slotStepMinutes = 15
        #expect(SlotGrid(settings: short, durationMinutes: 60).slots(on: Fixture.exampleDay).slots.isEmpty)
    }

    @Test func closingInsideTheSpringForwardGap() {
        let clock = StudioClock(zone: TimeZone(identifier: "Europe/Berlin")!)
        let close = clock.closingInstant(on: CalendarDay("2025-03-30")!, at: WallTime("02:30", allowMidnightEnd: true)!)
        #expect(WireTime.format(close) == "2025-03-30T01:00:00Z", "the first instant that exists after 02:30")
        #expect(clock.instant(on: CalendarDay("2025-03-30")!, at: WallTime("02:30", allowMidnightEnd: false)!) == nil)
    }
}
