import AppCore
import Foundation

/// `{open, close}` of one weekday.
struct DayHoursResponse: Encodable, Sendable, Equatable {
    let open: String
    let close: String

    init(_ h: DayHours) {
        open = h.open.text
        close = h.close.text
    }
}

/// StudioSettings (contract §3.2, §4.7.6).
struct SettingsResponse: Encodable, Sendable {
    let studioName: String
    let timezone: String
    let workingHours: [String: DayHoursResponse?]
    let slotStepMinutes: Int
    let capacity: Int
    let bookingWindowDays: Int
    let leadTimeMinutes: Int
    let adminEmail: String?
    let updatedAt: Date

    enum CodingKeys: String, CodingKey {
        case studioName, timezone, workingHours, slotStepMinutes, capacity, bookingWindowDays, leadTimeMinutes, adminEmail,
            updatedAt
    }

    struct DayKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(_ s: StudioSettings) {
        studioName = s.studioName
        timezone = s.timezone
        workingHours = Dictionary(uniqueKeysWithValues: Weekday.allCases.map { ($0.rawValue, s.hours.hours(on: $0).map(DayHoursResponse.init)) })
        slotStepMinutes = s.slotStepMinutes
        capacity = s.capacity
        bookingWindowDays = s.bookingWindowDays
        leadTimeMinutes = s.leadTimeMinutes
        adminEmail = s.adminEmail
        updatedAt = s.updatedAt
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(studioName, forKey: .studioName)
        try c.encode(timezone, forKey: .timezone)
        // The seven days in week order, closed days as explicit nulls.
        var days = c.nestedContainer(keyedBy: DayKey.self, forKey: .workingHours)
        for day in Weekday.allCases {
            let key = DayKey(stringValue: day.rawValue)
            if let hours = workingHours[day.rawValue] ?? nil { try days.encode(hours, forKey: key) } else { try days.encodeNil(forKey: key) }
        }
        try c.encode(slotStepMinutes, forKey: .slotStepMinutes)
        try c.encode(capacity, forKey: .capacity)
        try c.encode(bookingWindowDays, forKey: .bookingWindowDays)
        try c.encode(leadTimeMinutes, forKey: .leadTimeMinutes)
        // Always present: null until the admin gives an address.
        try c.encode(adminEmail, forKey: .adminEmail)
        try c.encode(updatedAt, forKey: .updatedAt)
    }
}
