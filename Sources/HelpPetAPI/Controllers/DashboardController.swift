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

    @Sendable func schedule(req: Request) async throws -> Response {
        let day = try await Self.selection(req)
        let completed = day.appointments.filter { $0.status == AppointmentStatus.completed.rawValue }.count
        return try JSONResponse.make(
            DashboardScheduleResponse(
                date: day.date.description, timezone: day.timezone, todayAppointments: day.appointments,
                stats: .init(appointmentsToday: day.appointments.count, completedVisits: completed),
                availabilityWindows: day.windows))
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
            .filter { has($0, .scheduled, .confirmed) && $0.appointmentDate > now }
            .min { ($0.appointmentDate, $0.id) < ($1.appointmentDate, $1.id) }
        // Latest start wins among several; ties go to the smallest id.
        func latest(_ items: [AppointmentResponse]) -> AppointmentResponse? {
            items.min {
                $0.appointmentDate != $1.appointmentDate ? $0.appointmentDate > $1.appointmentDate : $0.id < $1.id
            }
        }
        var current = latest(all.filter { has($0, .inProgress) })
        if current == nil {
            current = latest(all.filter {
                let end = $0.appointmentDate.addingTimeInterval(TimeInterval($0.durationMinutes * 60))
                return has($0, .scheduled, .confirmed) && $0.appointmentDate <= now && now < end
            })
        }
        let completed = all.filter { has($0, .completed) }.count
        let remaining = all.filter { !has($0, .completed, .cancelled) }.count
        return try JSONResponse.make(
            DashboardTodayResponse(
                date: day.date.description, timezone: day.timezone, appointmentsToday: all,
                nextAppointment: next, currentAppointment: current,
                completedCount: completed, remainingCount: remaining, availabilityWindows: day.windows))
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
            (role, vetPractice) = (vet.userRole, vet.practiceID)
        }
        guard role.isMember, let practiceID = vetPractice,
            let practice = try await req.readPathCaches.zone(of: practiceID, on: req.db)
        else { throw notFound }

        let day = requestedDay ?? LocalDay.day(containing: req.now, in: practice.zone)
        let window = LocalDay.window(of: day, in: practice.zone)
        let rows = try await req.appointments.vetDay(vet: vetID, practice: practiceID, window: window)
        return DaySelection(
            date: day, timezone: practice.identifier, appointments: rows.appointments,
            windows: rows.windows.map { VetAvailabilityResponse($0, vet: vetID, practice: practiceID) })
    }
}
