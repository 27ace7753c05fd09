import AppCore
import Foundation

struct DashboardTodayResponse: Encodable, Sendable {
    let date: String
    let timezone: String
    let appointmentsToday: [AppointmentResponse]
    @NullEncodable var nextAppointment: AppointmentResponse?
    @NullEncodable var currentAppointment: AppointmentResponse?
    let completedCount: Int
    let remainingCount: Int
    /// The vet's active availability windows overlapping the day (additive).
    let availabilityWindows: [VetAvailabilityResponse]

    enum CodingKeys: String, CodingKey {
        case date, timezone
        case appointmentsToday = "appointments_today"
        case nextAppointment = "next_appointment"
        case currentAppointment = "current_appointment"
        case completedCount = "completed_count"
        case remainingCount = "remaining_count"
        case availabilityWindows = "availability_windows"
    }
}
