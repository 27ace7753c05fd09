import Foundation

/// A VTIMEZONE for one zone and year, built from Foundation's time zone data: one STANDARD or DAYLIGHT
/// observance per transition in that year, plus the last transition before it (so the year's first days are
/// covered). A zone without transitions gets one STANDARD observance at its fixed offset.
public enum VTimeZone {
    public static func lines(for zone: TimeZone, year: Int) -> [String] {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        guard let yearStart = calendar.date(from: DateComponents(year: year, month: 1, day: 1)),
            let yearEnd = calendar.date(from: DateComponents(year: year + 1, month: 1, day: 1)),
            let searchStart = calendar.date(from: DateComponents(year: year - 1, month: 1, day: 1))
        else { return fixed(zone, at: Date()) }

        var transitions: [Date] = []
        var cursor = searchStart
        while let next = zone.nextDaylightSavingTimeTransition(after: cursor), next < yearEnd {
            transitions.append(next)
            cursor = next
        }
        let before = transitions.last { $0 <= yearStart }
        let inYear = transitions.filter { $0 > yearStart }
        let chosen = (before.map { [$0] } ?? []) + inYear
        guard !chosen.isEmpty else { return fixed(zone, at: yearStart) }

        var out = ["BEGIN:VTIMEZONE", "TZID:\(zone.identifier)"]
        for instant in chosen {
            let from = zone.secondsFromGMT(for: instant.addingTimeInterval(-1))
            let to = zone.secondsFromGMT(for: instant)
            let kind = zone.isDaylightSavingTime(for: instant) ? "DAYLIGHT" : "STANDARD"
            out.append("BEGIN:\(kind)")
            out.append("TZOFFSETFROM:\(offset(from))")
            out.append("TZOFFSETTO:\(offset(to))")
            if let name = zone.abbreviation(for: instant) { out.append("TZNAME:\(ICalendarText.escape(name))") }
            // The onset is written in the wall time that was in force before it (RFC 5545 §3.6.5).
            out.append("DTSTART:\(localStamp(instant, offsetSeconds: from))")
            out.append("END:\(kind)")
        }
        out.append("END:VTIMEZONE")
        return out
    }

    static func fixed(_ zone: TimeZone, at date: Date) -> [String] {
        let seconds = zone.secondsFromGMT(for: date)
        var out = ["BEGIN:VTIMEZONE", "TZID:\(zone.identifier)", "BEGIN:STANDARD", "TZOFFSETFROM:\(offset(seconds))",
                   "TZOFFSETTO:\(offset(seconds))"]
        if let name = zone.abbreviation(for: date) { out.append("TZNAME:\(ICalendarText.escape(name))") }
        out += ["DTSTART:19700101T000000", "END:STANDARD", "END:VTIMEZONE"]
        return out
    }

    /// `+hhmm` / `-hhmm` (`+hhmmss` when the offset has seconds).
    public static func offset(_ seconds: Int) -> String {
        let sign = seconds < 0 ? "-" : "+"
        let magnitude = abs(seconds)
        let text = sign + Digits.pad(magnitude / 3600, 2) + Digits.pad((magnitude % 3600) / 60, 2)
        return magnitude % 60 == 0 ? text : text + Digits.pad(magnitude % 60, 2)
    }

    /// The instant as wall time at a fixed offset, `yyyyMMdd'T'HHmmss`.
    static func localStamp(_ instant: Date, offsetSeconds: Int) -> String {
        ICalendarEvent.stamp(instant, zone: TimeZone(secondsFromGMT: offsetSeconds) ?? .gmt, utc: false)
    }
}
