import AppCore
import Foundation

struct DashboardScheduleResponse: Encodable, Sendable {
    let date: String
    let timezone: String
    let todayAppointments: [AppointmentResponse]
    let stats: Stats
    /// The vet's active availability windows overlapping the day (additive).
    let availabilityWindows: [VetAvailabilityResponse]

    enum CodingKeys: String, CodingKey {
        case date, timezone
        case todayAppointments = "today_appointments"
        case stats
        case availabilityWindows = "availability_windows"
    }

    struct Stats: Encodable, Sendable {
        let appointmentsToday: Int
        let completedVisits: Int

        enum CodingKeys: String, CodingKey {
            case appointmentsToday = "appointments_today"
            case completedVisits = "completed_visits"
        }
    }
}
