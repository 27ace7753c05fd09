import AppCore
import Foundation

/// Times and days as the practice reads them (its own zone, whatever the server's).
struct PracticeClock: Sendable {
    let zone: TimeZone

    /// "HH:mm" by arithmetic: the board formats two times per card, and a DateFormatter per call cost more than the
    /// rest of the page (bench/results/2026-11-25-console.txt).
    func time(_ date: Date) -> String {
        let minute = minuteOfDay(date)
        return Self.twoDigits(minute / 60) + ":" + Self.twoDigits(minute % 60)
    }

    private static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
    func dayTitle(_ day: CalendarDay) -> String { format(LocalDay.instant(on: day, hour: 12, minute: 0, in: zone), "EEEE d MMMM yyyy") }
    func shortDay(_ day: CalendarDay) -> String { format(LocalDay.instant(on: day, hour: 12, minute: 0, in: zone), "EEE d MMM") }
    func dateTime(_ date: Date) -> String { format(date, "d MMM yyyy, HH:mm") }
    func day(of date: Date) -> CalendarDay { LocalDay.day(containing: date, in: zone) }

    /// Minutes since local midnight of `date` (the week calendar's vertical position).
    func minuteOfDay(_ date: Date) -> Int {
        let local = Int(date.timeIntervalSince1970.rounded(.down)) + zone.secondsFromGMT(for: date)
        let second = ((local % 86_400) + 86_400) % 86_400
        return second / 60
    }

    private func format(_ date: Date, _ pattern: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = pattern
        return formatter.string(from: date)
    }
}
