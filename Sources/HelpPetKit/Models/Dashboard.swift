import Foundation

/// Today's work summary of a vet (`GET /api/v1/dashboard/vet/{id}/today`, seed 003 `DashboardResponse`).
public struct DashboardResponse: Codable, Sendable, Hashable {
    /// Every appointment of the vet on the day, all statuses, in start order.
    public let appointmentsToday: [Appointment]
    /// The earliest scheduled or confirmed appointment still to start.
    public let nextAppointment: Appointment?
    /// The appointment in progress (or one that should be running now).
    public let currentAppointment: Appointment?
    public let completedCount: Int
    public let remainingCount: Int
    /// The practice-local day shown, `YYYY-MM-DD` (not in the seed model).
    public let date: String?
    /// The practice's IANA time zone (not in the seed model).
    public let timezone: String?

    public init(
        appointmentsToday: [Appointment], nextAppointment: Appointment?, currentAppointment: Appointment?,
        completedCount: Int, remainingCount: Int, date: String? = nil, timezone: String? = nil
    ) {
        self.appointmentsToday = appointmentsToday
        self.nextAppointment = nextAppointment
        self.currentAppointment = currentAppointment
        self.completedCount = completedCount
        self.remainingCount = remainingCount
        self.date = date
        self.timezone = timezone
    }

    enum CodingKeys: String, CodingKey {
        case appointmentsToday = "appointments_today"
        case nextAppointment = "next_appointment"
        case currentAppointment = "current_appointment"
        case completedCount = "completed_count"
        case remainingCount = "remaining_count"
        case date, timezone
    }
}

/// A vet's schedule with stats (`GET /api/v1/dashboard/vet/{id}`).
public struct VetSchedule: Codable, Sendable, Hashable {
    public let date: String
    public let timezone: String
    public let todayAppointments: [Appointment]
    public let stats: Stats

    /// Counts of the schedule.
    public struct Stats: Codable, Sendable, Hashable {
        public let appointmentsToday: Int
        public let completedVisits: Int

        enum CodingKeys: String, CodingKey {
            case appointmentsToday = "appointments_today"
            case completedVisits = "completed_visits"
        }
    }

    enum CodingKeys: String, CodingKey {
        case date, timezone, stats
        case todayAppointments = "today_appointments"
    }
}
