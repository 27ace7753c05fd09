import Foundation

/// `GET /api/client/availability`: the slots of one service on one studio-local date.
public struct Availability: Codable, Sendable, Hashable {
    public let date: String
    public let serviceId: String
    /// The studio's IANA zone; every local time below is in it.
    public let timezone: String
    public let durationMinutes: Int
    public let capacity: Int
    /// That weekday's opening hours; nil when the studio is closed (then `slots` is empty).
    public let workingHours: DayHours?
    /// Every slot of the grid in order, unavailable ones included.
    public let slots: [Slot]

    /// One slot. Book it by passing ``startIso`` unchanged.
    public struct Slot: Codable, Sendable, Hashable {
        public let startIso: String
        public let endIso: String
        /// Studio-local wall time, `HH:mm`.
        public let startTime: String
        public let endTime: String
        public let available: Bool
        /// Free bays for the whole slot.
        public let remaining: Int
        /// `outside_window`, `lead_time` or `full`; nil when available.
        public let unavailableReason: String?
    }

    /// The slots that can be booked now.
    public var availableSlots: [Slot] { slots.filter(\.available) }
}

/// Opening hours of one weekday, `HH:mm` (`close` may be `24:00`).
public struct DayHours: Codable, Sendable, Hashable {
    public var open: String
    public var close: String

    public init(open: String, close: String) {
        self.open = open
        self.close = close
    }
}
