import AppCore
import Foundation

/// Times and days as a console's reader sees them: in the practice's or the studio's own zone, whatever the server's,
/// with the same words in both consoles (`en_US_POSIX`, so a month is always three letters).
public struct ConsoleDates: Sendable {
    public let zone: TimeZone

    public init(zone: TimeZone) { self.zone = zone }

    /// A stored zone identifier (an unknown one reads as UTC).
    public init(timezone: String) { zone = TimeZone.stored(timezone) }

    /// "HH:mm" by arithmetic: the day board formats two times per card, and a DateFormatter per call cost more than
    /// the rest of the page (bench/results/2026-11-25-console.txt).
    public func time(_ date: Date) -> String {
        let minute = minuteOfDay(date)
        return Self.twoDigits(minute / 60) + ":" + Self.twoDigits(minute % 60)
    }

    /// "Friday 14 March 2025".
    public func dayTitle(_ day: CalendarDay) -> String { format(noon(day), "EEEE d MMMM yyyy") }
    /// "Fri 14 Mar".
    public func shortDay(_ day: CalendarDay) -> String { format(noon(day), "EEE d MMM") }
    /// "14 Mar".
    public func tinyDay(_ day: CalendarDay) -> String { format(noon(day), "d MMM") }
    /// "14 Mar 2025, 09:30".
    public func dateTime(_ date: Date) -> String { format(date, "d MMM yyyy, HH:mm") }
    /// "Fri 14 Mar 2025, 09:30".
    public func dayAndDateTime(_ date: Date) -> String { format(date, "EEE d MMM yyyy, HH:mm") }
    /// "14 Mar, 09:30".
    public func shortDateTime(_ date: Date) -> String { format(date, "d MMM, HH:mm") }
    /// The value of an `<input type="datetime-local">`: "2025-03-14T09:30".
    public func localInput(_ date: Date) -> String { format(date, "yyyy-MM-dd'T'HH:mm") }

    /// The `datetime` attribute of a `<time>`.
    public func iso(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }

    /// The local day `date` falls on.
    public func day(of date: Date) -> CalendarDay { LocalDay.day(containing: date, in: zone) }

    /// Minutes since local midnight of `date` (a week calendar's vertical position).
    public func minuteOfDay(_ date: Date) -> Int {
        let local = Int(date.timeIntervalSince1970.rounded(.down)) + zone.secondsFromGMT(for: date)
        let second = ((local % 86_400) + 86_400) % 86_400
        return second / 60
    }

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }

    private func noon(_ day: CalendarDay) -> Date { LocalDay.instant(on: day, hour: 12, minute: 0, in: zone) }

    private func format(_ date: Date, _ pattern: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = pattern
        return formatter.string(from: date)
    }
}
