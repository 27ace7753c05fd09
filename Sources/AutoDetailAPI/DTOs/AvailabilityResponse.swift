import AppCore
import Foundation

/// `GET /api/client/availability` (contract §4.3).
struct AvailabilityResponse: Encodable, Sendable {
    struct Slot: Encodable, Sendable {
        let startIso: Date
        let endIso: Date
        let startTime: String
        let endTime: String
        let available: Bool
        let remaining: Int
        @NullEncodable var unavailableReason: String?
    }

    let date: String
    let serviceId: String
    let timezone: String
    let durationMinutes: Int
    let capacity: Int
    @NullEncodable var workingHours: DayHoursResponse?
    let slots: [Slot]
}
