import Foundation

/// Practice-local days: `[start of D, start of D+1)` in an IANA zone, DST-correct, independent of the OS zone.
public enum LocalDay {
    public static func calendar(in zone: TimeZone) -> Calendar {
        var c = Calendar(identifier: .gregorian)
        c.timeZone = zone
        return c
    }

    /// The first instant of `day` in `zone` (local midnight, or the first existing instant when midnight is skipped).
    public static func start(of day: CalendarDay, in zone: TimeZone) -> Date {
        let cal = calendar(in: zone)
        let noon = cal.date(from: DateComponents(year: day.year, month: day.month, day: day.day, hour: 12))!
        return cal.startOfDay(for: noon)
    }

    public static func window(of day: CalendarDay, in zone: TimeZone) -> Range<Date> {
        start(of: day, in: zone)..<start(of: day.adding(days: 1), in: zone)
    }

    public static func day(containing instant: Date, in zone: TimeZone) -> CalendarDay {
        let parts = calendar(in: zone).dateComponents([.year, .month, .day], from: instant)
        return CalendarDay(year: parts.year!, month: parts.month!, day: parts.day!)!
    }

    /// The instant of a local wall time on `day` (used by the demo seed; DST-correct).
    public static func instant(on day: CalendarDay, hour: Int, minute: Int, in zone: TimeZone) -> Date {
        let cal = calendar(in: zone)
        return cal.date(from: DateComponents(year: day.year, month: day.month, day: day.day, hour: hour, minute: minute))!
    }

    /// The contract's accepted time-zone identifiers: known to the tz database, not `Etc/...`, or exactly `UTC`.
    public static func isAcceptedZoneIdentifier(_ id: String) -> Bool {
        if id == "UTC" { return true }
        if id.hasPrefix("Etc/") { return false }
        return knownZones.contains(id)
    }

    private static let knownZones = Set(TimeZone.knownTimeZoneIdentifiers)
}
