import AppCore
import Foundation

/// Money, durations and booking statuses as the studio reads them (dates: WebConsole's `ConsoleDates`).
enum StudioFormat {
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
}
