import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The UTC time formats SigV4 uses. Formatting goes through `gmtime_r`/`timegm` instead of `DateFormatter`,
/// because these run on every request and must not depend on locale or calendar settings.
public enum AmzDate {
    /// `YYYYMMDDTHHMMSSZ` (`x-amz-date`, `X-Amz-Date`). Fractions of a second are dropped, as botocore does.
    public static func timestamp(_ date: Date) -> String {
        let t = utc(date)
        return String(format: "%04d%02d%02dT%02d%02d%02dZ", t.year, t.month, t.day, t.hour, t.minute, t.second)
    }

    /// `YYYYMMDD`, the date of a credential scope.
    public static func day(_ date: Date) -> String {
        let t = utc(date)
        return String(format: "%04d%02d%02d", t.year, t.month, t.day)
    }

    /// `YYYY-MM-DDTHH:MM:SSZ`, the policy `expiration` format.
    public static func iso8601(_ date: Date) -> String {
        let t = utc(date)
        return String(format: "%04d-%02d-%02dT%02d:%02d:%02dZ", t.year, t.month, t.day, t.hour, t.minute, t.second)
    }

    /// Parses `YYYYMMDDTHHMMSSZ` strictly (16 characters, digits where digits belong).
    public static func parseTimestamp(_ text: String) -> Date? {
        let b = Array(text.utf8)
        guard b.count == 16, b[8] == UInt8(ascii: "T"), b[15] == UInt8(ascii: "Z") else { return nil }
        guard let year = digits(b, 0, 4), let month = digits(b, 4, 2), let day = digits(b, 6, 2),
              let hour = digits(b, 9, 2), let minute = digits(b, 11, 2), let second = digits(b, 13, 2)
        else { return nil }
        return make(year: year, month: month, day: day, hour: hour, minute: minute, second: second, fraction: 0)
    }

    /// Parses a policy `expiration`: `YYYY-MM-DDTHH:MM:SS[.fff…]Z` (AWS's own example carries milliseconds).
    public static func parseISO8601(_ text: String) -> Date? {
        let b = Array(text.utf8)
        guard b.count >= 20, b[4] == UInt8(ascii: "-"), b[7] == UInt8(ascii: "-"), b[10] == UInt8(ascii: "T"),
              b[13] == UInt8(ascii: ":"), b[16] == UInt8(ascii: ":"), b.last == UInt8(ascii: "Z")
        else { return nil }
        guard let year = digits(b, 0, 4), let month = digits(b, 5, 2), let day = digits(b, 8, 2),
              let hour = digits(b, 11, 2), let minute = digits(b, 14, 2), let second = digits(b, 17, 2)
        else { return nil }
        var fraction = 0.0
        if b.count > 20 {
            // Only ".digits" may sit between the seconds and the "Z".
            guard b[19] == UInt8(ascii: "."), b.count > 21 else { return nil }
            let fractionDigits = b[20..<(b.count - 1)]
            guard fractionDigits.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
            fraction = Double("0." + String(decoding: fractionDigits, as: UTF8.self)) ?? 0
        } else if b.count != 20 {
            return nil
        }
        return make(year: year, month: month, day: day, hour: hour, minute: minute, second: second, fraction: fraction)
    }

    private struct Fields { var year, month, day, hour, minute, second: Int }

    private static func utc(_ date: Date) -> Fields {
        var seconds = time_t(floor(date.timeIntervalSince1970))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        return Fields(
            year: Int(parts.tm_year) + 1900, month: Int(parts.tm_mon) + 1, day: Int(parts.tm_mday),
            hour: Int(parts.tm_hour), minute: Int(parts.tm_min), second: Int(parts.tm_sec))
    }

    private static func digits(_ bytes: [UInt8], _ start: Int, _ count: Int) -> Int? {
        var value = 0
        for byte in bytes[start..<(start + count)] {
            guard byte >= 48, byte <= 57 else { return nil }
            value = value * 10 + Int(byte - 48)
        }
        return value
    }

    private static func make(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, fraction: Double) -> Date? {
        guard (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61 else { return nil }
        var parts = tm()
        parts.tm_year = Int32(year - 1900)
        parts.tm_mon = Int32(month - 1)
        parts.tm_mday = Int32(day)
        parts.tm_hour = Int32(hour)
        parts.tm_min = Int32(minute)
        parts.tm_sec = Int32(second)
        let seconds = timegm(&parts)
        // timegm normalises impossible dates (Feb 30 → Mar 2); refuse them instead of accepting a different instant.
        guard Int(parts.tm_mday) == day, Int(parts.tm_mon) == month - 1 else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(seconds) + fraction)
    }
}
