import AppCore

/// A local wall-clock time `HH:mm` as minutes since midnight; `24:00` (1440) exists only as a closing time
/// (contract §1.3, §3.2).
struct WallTime: Sendable, Hashable, Comparable {
    let minutes: Int

    init(minutes: Int) { self.minutes = minutes }

    /// Exactly `HH:mm` with `00:00`–`23:59`, plus `24:00` when `allowMidnightEnd`.
    init?(_ text: String, allowMidnightEnd: Bool) {
        let b = Array(text.utf8)
        guard b.count == 5, b[2] == UInt8(ascii: ":") else { return nil }
        func digit(_ i: Int) -> Int? { b[i] >= 48 && b[i] <= 57 ? Int(b[i] - 48) : nil }
        guard let h1 = digit(0), let h2 = digit(1), let m1 = digit(3), let m2 = digit(4) else { return nil }
        let hour = h1 * 10 + h2, minute = m1 * 10 + m2
        if hour == 24 && minute == 0 && allowMidnightEnd {
            self.minutes = 1440
            return
        }
        guard hour < 24, minute < 60 else { return nil }
        self.minutes = hour * 60 + minute
    }

    var text: String {
        let h = minutes / 60, m = minutes % 60
        return (h < 10 ? "0\(h)" : "\(h)") + ":" + (m < 10 ? "0\(m)" : "\(m)")
    }

    static func < (a: WallTime, b: WallTime) -> Bool { a.minutes < b.minutes }
}

/// One weekday's opening interval (no breaks).
struct DayHours: Sendable, Hashable {
    let open: WallTime
    let close: WallTime
}

/// The studio-local weekdays in the order the contract lists them (`mon` … `sun`).
enum Weekday: String, CaseIterable, Sendable {
    case mon, tue, wed, thu, fri, sat, sun

    /// The weekday of a calendar date (1970-01-01 was a Thursday).
    init(_ day: CalendarDay) {
        let index = Int(((day.daysSince1970 % 7) + 7 + 3) % 7)
        self = Weekday.allCases[index]
    }
}

/// Working hours of every weekday; `nil` = closed.
struct WeekHours: Sendable, Hashable {
    var days: [Weekday: DayHours]

    static let standard = WeekHours(days: Dictionary(uniqueKeysWithValues: Weekday.allCases.map {
        ($0, DayHours(open: WallTime(minutes: 9 * 60), close: WallTime(minutes: 21 * 60)))
    }))

    func hours(on weekday: Weekday) -> DayHours? { days[weekday] }
}
