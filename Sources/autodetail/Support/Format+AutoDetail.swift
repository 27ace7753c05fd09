import CLISupport
import Foundation

/// AutoDetail's own human formats: the server's instants and prices in roubles.
extension Format {
    /// An instant from the server (`2025-03-14T08:00:00Z`) as `2025-03-14 11:00 GMT+3` in `timeZone` (the machine's zone
    /// when nil); the text unchanged when it does not parse.
    static func instant(_ iso: String, timeZone: TimeZone? = nil) -> String {
        guard let date = ISO8601DateFormatter().date(from: iso) else { return iso }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone ?? .current
        formatter.dateFormat = "yyyy-MM-dd HH:mm zzz"
        return formatter.string(from: date)
    }

    /// Roubles with thin grouping: `12 000 ₽`.
    static func rub(_ amount: Int) -> String {
        var digits = String(amount)
        var groups: [String] = []
        while digits.count > 3 {
            groups.insert(String(digits.suffix(3)), at: 0)
            digits.removeLast(3)
        }
        groups.insert(digits, at: 0)
        return groups.joined(separator: " ") + " RUB"
    }
}
