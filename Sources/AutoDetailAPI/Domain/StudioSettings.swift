import AppCore
import Foundation
import NIOConcurrencyHelpers

/// The one StudioSettings row (contract §3.2), decoded for computation.
struct StudioSettings: Sendable {
    var studioName: String
    var timezone: String
    var hours: WeekHours
    var slotStepMinutes: Int
    var capacity: Int
    var bookingWindowDays: Int
    var leadTimeMinutes: Int
    /// Where the admin's password reset links go; nil: no reset by email.
    var adminEmail: String?
    var updatedAt: Date

    var zone: TimeZone { TimeZone.stored(timezone) }
    var clock: StudioClock { StudioClock(zone: zone) }

    static func defaults(now: Date) -> StudioSettings {
        StudioSettings(
            studioName: "AutoDetail Hub", timezone: "Europe/Moscow", hours: .standard, slotStepMinutes: 30,
            capacity: 2, bookingWindowDays: 30, leadTimeMinutes: 60, adminEmail: nil, updatedAt: now)
    }
}

/// The stored form of working hours: `{"mon": {"open": "09:00", "close": "21:00"}, ..., "sun": null}`.
enum WorkingHoursCoding {
    static func encode(_ hours: WeekHours) -> String {
        let object = JSONValue.object(Dictionary(uniqueKeysWithValues: Weekday.allCases.map { day -> (String, JSONValue) in
            guard let h = hours.hours(on: day) else { return (day.rawValue, .null) }
            return (day.rawValue, .object(["open": .string(h.open.text), "close": .string(h.close.text)]))
        }))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: (try? encoder.encode(object)) ?? Data("{}".utf8), as: UTF8.self)
    }

    /// The last text decoded and its week. Every availability read and booking decodes the settings row's hours,
    /// which change only when an admin edits them; decoding the JSON each time was a tenth of availability's CPU.
    private static let lastDecoded = NIOLockedValueBox<(text: String, hours: WeekHours)?>(nil)

    static func decode(_ text: String) -> WeekHours {
        if let hours = lastDecoded.withLockedValue({ $0?.text == text ? $0?.hours : nil }) { return hours }
        let hours = parse(text)
        lastDecoded.withLockedValue { $0 = (text, hours) }
        return hours
    }

    private static func parse(_ text: String) -> WeekHours {
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)), case .object(let o) = value
        else { return .standard }
        var days: [Weekday: DayHours] = [:]
        for day in Weekday.allCases {
            guard case .object(let h)? = o[day.rawValue], case .string(let open)? = h["open"],
                case .string(let close)? = h["close"],
                let openTime = WallTime(open, allowMidnightEnd: false), let closeTime = WallTime(close, allowMidnightEnd: true)
            else { continue }
            days[day] = DayHours(open: openTime, close: closeTime)
        }
        return WeekHours(days: days)
    }
}
