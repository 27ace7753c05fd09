import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// IMF-fixdate (`Wed, 15 Jan 2025 17:12:04 GMT`), the format of `Last-Modified`.
public enum HTTPDate {
    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    public static func format(_ date: Date) -> String {
        var seconds = time_t(floor(date.timeIntervalSince1970))
        var t = tm()
        gmtime_r(&seconds, &t)
        return String(format: "%@, %02d %@ %04d %02d:%02d:%02d GMT", days[Int(t.tm_wday)], t.tm_mday,
                      months[Int(t.tm_mon)], Int(t.tm_year) + 1900, t.tm_hour, t.tm_min, t.tm_sec)
    }

    public static func parse(_ text: String) -> Date? {
        // "Wed, 15 Jan 2025 17:12:04 GMT"
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[5] == "GMT", let day = Int(parts[1]),
              let month = months.firstIndex(of: String(parts[2])), let year = Int(parts[3])
        else { return nil }
        let clock = parts[4].split(separator: ":")
        guard clock.count == 3, let hour = Int(clock[0]), let minute = Int(clock[1]), let second = Int(clock[2]) else {
            return nil
        }
        var t = tm()
        t.tm_year = Int32(year - 1900)
        t.tm_mon = Int32(month)
        t.tm_mday = Int32(day)
        t.tm_hour = Int32(hour)
        t.tm_min = Int32(minute)
        t.tm_sec = Int32(second)
        return Date(timeIntervalSince1970: TimeInterval(timegm(&t)))
    }
}
