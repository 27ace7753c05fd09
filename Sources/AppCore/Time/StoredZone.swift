import Foundation

extension TimeZone {
    /// UTC, built once.
    public static let utc = TimeZone(identifier: "UTC")!

    /// A zone name read back from storage (a practice's or the studio's). Names are checked against the tz database
    /// when they are written, so a miss here means the server's tz database no longer knows the name; UTC then, so a
    /// page or a schedule still renders instead of failing.
    public static func stored(_ identifier: String) -> TimeZone {
        TimeZone(identifier: identifier) ?? utc
    }
}
