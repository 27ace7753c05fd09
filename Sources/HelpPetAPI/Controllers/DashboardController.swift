import AppCore
import Foundation
import Vapor

/// A vet's schedule for one practice-local day: `/dashboard/vet/{id}` (with stats) and `/today` (seed 003's
/// DashboardResponse, the screen the iOS app opens with).
struct DashboardController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        let dashboard = routes.grouped("dashboard", "vet", ":vet_user_id")
        dashboard.get(use: schedule)
        dashboard.get("today", use: today)
    }

    struct Stats: Encodable, Sendable {
        let appointments_today: Int
        let completed_visits: Int
    }

    struct ScheduleResponse: Encodable, Sendable {
        let date: String
        let timezone: String
        let today_appointments: [AppointmentResponse]
        let stats: Stats
        /// The vet's active availability windows overlapping the day (additive).
        let availability_windows: [VetAvailabilityResponse]
    }

    struct TodayResponse: Encodable, Sendable {
        let date: String
        let timezone: String
        let appointments_today: [AppointmentResponse]
        @NullEncodable var next_appointment: AppointmentResponse?
        @NullEncodable var current_appointment: AppointmentResponse?
        let completed_count: Int
        let remaining_count: Int
        /// The vet's active availability windows overlapping the day (additive).
        let availability_windows: [VetAvailabilityResponse]
    }

    @Sendable func schedule(req: Request) async throws -> Response {
        let day = try await Self.selection(req)
        let completed = day.appointments.filter { $0.status == AppointmentStatus.completed.rawValue }.count
        return try JSONResponse.make(
            ScheduleResponse(
                date: day.date.description, timezone: day.timezone, today_appointments: day.appointments,
                stats: Stats(appointments_today: day.appointments.count, completed_visits: completed),
                availability_windows: day.windows))
    }

    @Sendable func today(req: Request) async throws -> Response {
        let day = try await Self.selection(req)
        let now = req.now
        let all = day.appointments
        func has(_ a: AppointmentResponse, _ statuses: AppointmentStatus...) -> Bool {
            statuses.contains { $0.rawValue == a.status }
        }

        // Ids are compared as lowercase text, which orders like the uppercase form they were compared in before.
        let next = all
            .filter { has($0, .scheduled, .confirmed) && $0.appointment_date > now }
            .min { ($0.appointment_date, $0.id) < ($1.appointment_date, $1.id) }
        // Latest start wins among several; ties go to the smallest id.
        func latest(_ items: [AppointmentResponse]) -> AppointmentResponse? {
            items.min {
                $0.appointment_date != $1.appointment_date ? $0.appointment_date > $1.appointment_date : $0.id < $1.id
            }
        }
        var current = latest(all.filter { has($0, .inProgress) })
        if current == nil {
            current = latest(all.filter {
                let end = $0.appointment_date.addingTimeInterval(TimeInterval($0.duration_minutes * 60))
                return has($0, .scheduled, .confirmed) && $0.appointment_date <= now && now < end
            })
        }
        let completed = all.filter { has($0, .completed) }.count
        let remaining = all.filter { !has($0, .completed, .cancelled) }.count
        return try JSONResponse.make(
            TodayResponse(
                date: day.date.description, timezone: day.timezone, appointments_today: all,
                next_appointment: next, current_appointment: current,
                completed_count: completed, remaining_count: remaining, availability_windows: day.windows))
    }

    struct DaySelection {
        let date: CalendarDay
        let timezone: String
        let appointments: [AppointmentResponse]
        let windows: [VetAvailabilityResponse]
    }

    /// Checks in the contract's order, then the vet's appointments in their current practice on the local day and
    /// their availability windows, in one statement (AppointmentStore.vetDay). The vet's role and practice and the
    /// practice's zone come from the read-path caches (at most one second old, docs/read-path.md).
    static func selection(_ req: Request) async throws -> DaySelection {
        let caller = try req.caller
        try caller.requireStaff()
        let vetID = try req.pathID("vet_user_id", .vetUser)
        if caller.isMember && vetID != caller.id {
            throw APIError.forbidden("Access denied. Can only view your own dashboard.")
        }
        let requestedDay = try req.queryParameters.day()
        let notFound = APIError.vetNotFound
        let role: UserRole, vetPractice: UUID?
        if vetID == caller.id {
            (role, vetPractice) = (caller.role, caller.practiceID)
        } else {
            guard let vet = try await req.readPathCaches.identity(of: vetID, on: req.db) else { throw notFound }
            (role, vetPractice) = (vet.userRole, vet.practice_id)
        }
        guard role.isMember, let practiceID = vetPractice,
            let practice = try await req.readPathCaches.zone(of: practiceID, on: req.db)
        else { throw notFound }

        let day = requestedDay ?? LocalDay.day(containing: req.now, in: practice.zone)
        let window = LocalDay.window(of: day, in: practice.zone)
        let rows = try await AppointmentStore.vetDay(vet: vetID, practice: practiceID, window: window, on: req.db)
        return DaySelection(
            date: day, timezone: practice.identifier, appointments: rows.appointments,
            windows: rows.windows.map { VetAvailabilityResponse($0, vet: vetID, practice: practiceID) })
    }
}
