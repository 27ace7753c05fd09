import AppCore
import Foundation

/// Dates, times and money as the studio reads them: in the studio's own zone (whatever the server's), roubles with
/// thin grouping.
struct StudioFormat: Sendable {
    let zone: TimeZone

    init(timezone: String) { zone = TimeZone.stored(timezone) }

    func time(_ date: Date) -> String { format(date, "HH:mm") }
    func dateTime(_ date: Date) -> String { format(date, "EEE d MMM yyyy, HH:mm") }
    func shortDateTime(_ date: Date) -> String { format(date, "d MMM, HH:mm") }
    func dayTitle(_ day: CalendarDay) -> String { format(noon(day), "EEEE d MMMM yyyy") }
    func shortDay(_ day: CalendarDay) -> String { format(noon(day), "EEE d MMM") }
    func tinyDay(_ day: CalendarDay) -> String { format(noon(day), "d MMM") }

    /// `datetime` attribute value of a `<time>`.
    func iso(_ date: Date) -> String {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        return f.string(from: date)
    }

    static func rub(_ amount: Int) -> String {
        let f = NumberFormatter()
        f.numberStyle = .decimal
        f.groupingSeparator = " "
        f.usesGroupingSeparator = true
        return (f.string(from: NSNumber(value: amount)) ?? String(amount)) + " ₽"
    }

    static func minutes(_ total: Int) -> String {
        let h = total / 60, m = total % 60
        if h == 0 { return "\(m) min" }
        return m == 0 ? "\(h) h" : "\(h) h \(m) min"
    }

    static func statusLabel(_ status: String) -> String {
        switch status {
        case "new": "New"
        case "confirmed": "Confirmed"
        case "in_progress": "In progress"
        case "done": "Done"
        case "cancelled": "Cancelled"
        default: status
        }
    }

    static func statusBadge(_ status: String) -> String {
        switch status {
        case "new": "badge warn"
        case "confirmed": "badge info"
        case "in_progress": "badge info"
        case "done": "badge ok"
        case "cancelled": "badge bad"
        default: "badge"
        }
    }

    /// The label of the button that moves a booking to `status` (the admin API's transitions).
    static func actionLabel(_ status: String) -> String {
        switch status {
        case "confirmed": "Confirm"
        case "in_progress": "Start work"
        case "done": "Complete"
        case "cancelled": "Cancel booking"
        default: statusLabel(status)
        }
    }

    private func noon(_ day: CalendarDay) -> Date {
        LocalDay.instant(on: day, hour: 12, minute: 0, in: zone)
    }

    private func format(_ date: Date, _ pattern: String) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_GB")
        formatter.timeZone = zone
        formatter.dateFormat = pattern
        return formatter.string(from: date)
    }
}
