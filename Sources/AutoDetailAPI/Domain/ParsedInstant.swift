import AppCore
import Foundation

/// The contract's input grammar for instants (§1.3): `YYYY-MM-DDTHH:MM:SS`, optional `.` and 1–9 digits, then `Z`
/// or `±HH:MM`; `T` and `Z` upper case; a real date.
struct ParsedInstant: Sendable, Equatable {
    /// The instant, truncated to whole seconds.
    let date: Date
    /// True when the fractional part is present and not zero (such an instant never equals a slot start).
    let hasFraction: Bool

    init?(_ text: String) {
        let b = Array(text.utf8)
        func digits(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= b.count else { return nil }
            var v = 0
            for i in from..<(from + count) {
                guard b[i] >= 48, b[i] <= 57 else { return nil }
                v = v * 10 + Int(b[i] - 48)
            }
            return v
        }
        guard b.count >= 20, let year = digits(0, 4), b[4] == UInt8(ascii: "-"), let month = digits(5, 2),
            b[7] == UInt8(ascii: "-"), let dayOfMonth = digits(8, 2), b[10] == UInt8(ascii: "T"),
            let hour = digits(11, 2), b[13] == UInt8(ascii: ":"), let minute = digits(14, 2), b[16] == UInt8(ascii: ":"),
            let second = digits(17, 2),
            let day = CalendarDay(year: year, month: month, day: dayOfMonth), hour < 24, minute < 60, second < 60
        else { return nil }
        var i = 19
        var fraction = false
        if b[i] == UInt8(ascii: ".") {
            i += 1
            let start = i
            while i < b.count, b[i] >= 48, b[i] <= 57 {
                if b[i] != 48 { fraction = true }
                i += 1
            }
            guard (1...9).contains(i - start) else { return nil }
        }
        guard i < b.count else { return nil }
        var offset = 0
        if b[i] == UInt8(ascii: "Z") {
            i += 1
        } else if b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") {
            guard let oh = digits(i + 1, 2), i + 3 < b.count, b[i + 3] == UInt8(ascii: ":"), let om = digits(i + 4, 2),
                oh < 24, om < 60
            else { return nil }
            offset = (b[i] == UInt8(ascii: "-") ? -1 : 1) * (oh * 3600 + om * 60)
            i += 6
        } else {
            return nil
        }
        guard i == b.count else { return nil }
        let seconds = day.daysSince1970 * 86_400 + Int64(hour * 3600 + minute * 60 + second) - Int64(offset)
        self.date = Date(timeIntervalSince1970: TimeInterval(seconds))
        self.hasFraction = fraction
    }
}
