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

    /// A device's own zone, as an app reports it (`TimeZone.current.identifier`): what a practice may have, plus the
    /// tz database's other names of UTC. A Linux-hosted client or a device set to UTC reports `Etc/UTC`, `Etc/GMT` or
    /// `GMT`, and all a device's zone is used for is where its local day starts. A practice's zone keeps the
    /// contract's rule (`isAcceptedZoneIdentifier`): people read it, and `Etc/GMT+5` would mean UTC−5.
    public static func isAcceptedDeviceZoneIdentifier(_ id: String) -> Bool {
        if isAcceptedZoneIdentifier(id) { return true }
        return utcNames.contains(id) && TimeZone(identifier: id)?.secondsFromGMT() == 0
    }

    /// The tz database's other names of UTC, in case the platform's list of known zones leaves some out.
    private static let utcNames: Set<String> = [
        "Etc/UTC", "Etc/UCT", "Etc/GMT", "Etc/GMT0", "Etc/GMT+0", "Etc/GMT-0", "Etc/Universal", "Etc/Zulu",
        "Etc/Greenwich", "GMT", "GMT0", "GMT+0", "GMT-0", "UCT", "Universal", "Zulu", "Greenwich",
    ]

    private static let knownZones = Set(TimeZone.knownTimeZoneIdentifiers)
}
