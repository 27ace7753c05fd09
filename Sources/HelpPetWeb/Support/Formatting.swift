import AppCore
import Foundation

/// Times and days as the practice reads them (its own zone, whatever the server's).
struct PracticeClock: Sendable {
    let zone: TimeZone

    func time(_ date: Date) -> String { format(date, "HH:mm") }
    func dayTitle(_ day: CalendarDay) -> String { format(LocalDay.instant(on: day, hour: 12, minute: 0, in: zone), "EEEE d MMMM yyyy") }
    func shortDay(_ day: CalendarDay) -> String { format(LocalDay.instant(on: day, hour: 12, minute: 0, in: zone), "EEE d MMM") }
    func dateTime(_ date: Date) -> String { format(date, "d MMM yyyy, HH:mm") }
    func day(of date: Date) -> CalendarDay { LocalDay.day(containing: date, in: zone) }

    /// Minutes since local midnight of `date` (the week calendar's vertical position).
    func minuteOfDay(_ date: Date) -> Int {
        let parts = LocalDay.calendar(in: zone).dateComponents([.hour, .minute], from: date)
        return (parts.hour ?? 0) * 60 + (parts.minute ?? 0)
    }

    private func format(_ date: Date, _ pattern: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = pattern
        return formatter.string(from: date)
    }
}
