import Foundation

/// The wire formats of instants: output is always `yyyy-MM-dd'T'HH:mm:ss'Z'`; input is RFC 3339 with a
/// mandatory zone. Hand-written because DateFormatter is slow and lenient in ways the contract forbids.
public enum WireTime {
    public static let minimum = Date(timeIntervalSince1970: 946_684_800)  // 2000-01-01T00:00:00Z
    public static let maximum = Date(timeIntervalSince1970: 4_133_980_799)  // 2100-12-31T23:59:59Z

    private static let utcCalendar: Calendar = {
        var c = Calendar(identifier: .gregorian)
        c.timeZone = TimeZone(identifier: "UTC")!
        return c
    }()

    /// Formats an instant in UTC, whole seconds, literal `Z`.
    public static func format(_ date: Date) -> String {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        let (day, secondOfDay) = floorDivide(seconds, 86_400)
        let civil = CalendarDay(daysSince1970: day)
        let h = secondOfDay / 3600, m = (secondOfDay % 3600) / 60, s = secondOfDay % 60
        return "\(civil.description)T\(pad(h)):\(pad(m)):\(pad(s))Z"
    }

    /// Truncates to whole seconds, as the database stores every instant.
    public static func truncated(_ date: Date) -> Date {
        Date(timeIntervalSince1970: date.timeIntervalSince1970.rounded(.down))
    }

    /// Parses an RFC 3339 datetime for the request field `field`, with the contract's three messages.
    public static func parseInputDateTime(_ text: String, field: String) throws -> Date {
        switch parse(text) {
        case .success(let date):
            guard date >= minimum, date <= maximum else { throw APIError.badRequest("\(field) is out of range") }
            return date
        case .missingZone:
            throw APIError.badRequest(
                "\(field) must include a timezone offset (for example 2025-01-15T17:00:00Z)")
        case .invalid:
            throw APIError.badRequest("\(field) must be an ISO-8601 datetime")
        }
    }

    public enum ParseResult: Equatable { case success(Date), missingZone, invalid }

    public static func parse(_ text: String) -> ParseResult {
        let b = Array(text.utf8)
        func digits(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= b.count else { return nil }
            var v = 0
            for i in from..<(from + count) {
                let c = b[i]
                guard c >= 48 && c <= 57 else { return nil }
                v = v * 10 + Int(c - 48)
            }
            return v
        }
        guard b.count >= 19,
            let year = digits(0, 4), b[4] == UInt8(ascii: "-"), let month = digits(5, 2), b[7] == UInt8(ascii: "-"),
            let dayOfMonth = digits(8, 2), b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: "t"),
            let hour = digits(11, 2), b[13] == UInt8(ascii: ":"), let minute = digits(14, 2),
            b[16] == UInt8(ascii: ":"), let second = digits(17, 2)
        else { return .invalid }
        guard let day = CalendarDay(year: year, month: month, day: dayOfMonth), hour < 24, minute < 60, second < 60
        else { return .invalid }
        var i = 19
        if i < b.count, b[i] == UInt8(ascii: ".") {
            i += 1
            let start = i
            while i < b.count, b[i] >= 48, b[i] <= 57 { i += 1 }
            if i == start { return .invalid }  // fraction digits are truncated, not rounded
        }
        var offsetSeconds = 0
        if i == b.count { return .missingZone }
        switch b[i] {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            i += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let sign = b[i] == UInt8(ascii: "-") ? -1 : 1
            guard let oh = digits(i + 1, 2), i + 3 < b.count, b[i + 3] == UInt8(ascii: ":"),
                let om = digits(i + 4, 2), oh < 24, om < 60
            else { return .invalid }
            offsetSeconds = sign * (oh * 3600 + om * 60)
            i += 6
        default:
            return .invalid
        }
        guard i == b.count else { return .invalid }
        let seconds = Int64(day.daysSince1970) * 86_400 + Int64(hour * 3600 + minute * 60 + second)
            - Int64(offsetSeconds)
        return .success(Date(timeIntervalSince1970: TimeInterval(seconds)))
    }

    static func pad(_ v: Int64) -> String { v < 10 ? "0\(v)" : String(v) }

    static func floorDivide(_ a: Int64, _ b: Int64) -> (Int64, Int64) {
        var q = a / b
        var r = a % b
        if r < 0 { q -= 1; r += b }
        return (q, r)
    }
}
