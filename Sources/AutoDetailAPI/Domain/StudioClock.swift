import AppCore
import Foundation

/// Wall-clock arithmetic in the studio zone through the IANA database (contract §6 rules 1, 4, 5): never a fixed
/// offset, never the OS zone. Wall times are resolved by searching the zone's offsets and verifying each candidate
/// by converting it back, so a gap time is reported as missing rather than silently moved.
struct StudioClock: Sendable {
    let zone: TimeZone

    /// The instant of wall time `time` on `day`: the earlier occurrence when it occurs twice (fall back), nil when
    /// it does not exist (spring forward).
    func instant(on day: CalendarDay, at time: WallTime) -> Date? {
        let naive = Self.naiveSeconds(day, time)
        let candidates = offsets(around: naive).compactMap { offset -> Int64? in
            let t = naive - Int64(offset)
            return self.offset(at: t) == offset ? t : nil
        }
        return candidates.min().map { Date(timeIntervalSince1970: TimeInterval($0)) }
    }

    /// The closing instant of `day` for a closing wall time: `24:00` is the start of the next day; a closing time
    /// inside a spring-forward gap closes at the transition (the first instant that exists after it).
    func closingInstant(on day: CalendarDay, at time: WallTime) -> Date {
        if time.minutes == 1440 { return startOfDay(day.adding(days: 1)) }
        if let exact = instant(on: day, at: time) { return exact }
        let naive = Self.naiveSeconds(day, time)
        let largest = offsets(around: naive).max() ?? 0
        let before = Date(timeIntervalSince1970: TimeInterval(naive - Int64(largest) - 1))
        return zone.nextDaylightSavingTimeTransition(after: before)
            ?? Date(timeIntervalSince1970: TimeInterval(naive - Int64(offsets(around: naive).min() ?? 0)))
    }

    /// Local midnight of `day`, or the first instant of that date when midnight does not exist (rule 1).
    func startOfDay(_ day: CalendarDay) -> Date { LocalDay.start(of: day, in: zone) }

    /// The studio-local date of an instant.
    func day(of instant: Date) -> CalendarDay {
        let seconds = Int64(instant.timeIntervalSince1970.rounded(.down))
        let local = seconds + Int64(offset(at: seconds))
        return CalendarDay(daysSince1970: Self.floorDiv(local, 86_400))
    }

    /// The studio-local wall time of an instant (`00:00` for midnight).
    func wallTime(of instant: Date) -> WallTime {
        let seconds = Int64(instant.timeIntervalSince1970.rounded(.down))
        let local = seconds + Int64(offset(at: seconds))
        let secondOfDay = local - Self.floorDiv(local, 86_400) * 86_400
        return WallTime(minutes: Int(secondOfDay / 60))
    }

    // MARK: Helpers

    private func offset(at seconds: Int64) -> Int {
        zone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(seconds)))
    }

    /// Every offset the zone uses within two days of a naive instant (enough for any real transition).
    private func offsets(around naive: Int64) -> Set<Int> {
        var result = Set<Int>()
        for delta: Int64 in [-172_800, -86_400, -43_200, 0, 43_200, 86_400, 172_800] {
            let probe = naive + delta
            result.insert(offset(at: probe))
        }
        return result
    }

    /// The wall time read as if it were UTC.
    private static func naiveSeconds(_ day: CalendarDay, _ time: WallTime) -> Int64 {
        day.daysSince1970 * 86_400 + Int64(time.minutes * 60)
    }

    private static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
        let q = a / b
        return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
    }
}
