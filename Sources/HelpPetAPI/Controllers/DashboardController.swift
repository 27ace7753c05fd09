import AppCore
import Fluent
import Foundation
import Vapor

/// A vet's schedule for one practice-local day: `/dashboard/vet/{id}` (with stats) and `/today` (seed 003's
/// DashboardResponse, the screen the iOS app opens with).
struct DashboardController: HelpPetRouteCollection {
    func boot(routes: any RoutesBuilder) {
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
    }

    struct TodayResponse: Encodable, Sendable {
        let date: String
        let timezone: String
        let appointments_today: [AppointmentResponse]
        @NullEncodable var next_appointment: AppointmentResponse?
        @NullEncodable var current_appointment: AppointmentResponse?
        let completed_count: Int
        let remaining_count: Int
    }

    @Sendable func schedule(req: Request) async throws -> Response {
        let day = try await Self.selection(req)
        let completed = day.appointments.filter { $0.status == .completed }.count
        return try JSONResponse.make(
            ScheduleResponse(
                date: day.date.description, timezone: day.timezone, today_appointments: day.responses,
                stats: Stats(appointments_today: day.appointments.count, completed_visits: completed)))
    }

    @Sendable func today(req: Request) async throws -> Response {
        let day = try await Self.selection(req)
        let now = req.now
        let indexed = Array(zip(day.appointments, day.responses))

        let next = indexed
            .filter { ($0.0.status == .scheduled || $0.0.status == .confirmed) && $0.0.appointmentDate > now }
            .min { ($0.0.appointmentDate, $0.0.id!.uuidString) < ($1.0.appointmentDate, $1.0.id!.uuidString) }
        // Latest start wins among several; ties go to the smallest id.
        func latest(_ items: [(Appointment, AppointmentResponse)]) -> (Appointment, AppointmentResponse)? {
            items.min {
                $0.0.appointmentDate != $1.0.appointmentDate
                    ? $0.0.appointmentDate > $1.0.appointmentDate : $0.0.id!.uuidString < $1.0.id!.uuidString
            }
        }
        var current = latest(indexed.filter { $0.0.status == .inProgress })
        if current == nil {
            current = latest(indexed.filter {
                let a = $0.0
                let end = a.appointmentDate.addingTimeInterval(TimeInterval(a.durationMinutes * 60))
                return (a.status == .scheduled || a.status == .confirmed) && a.appointmentDate <= now && now < end
            })
        }
        let completed = day.appointments.filter { $0.status == .completed }.count
        let remaining = day.appointments.filter { $0.status != .completed && $0.status != .cancelled }.count
        return try JSONResponse.make(
            TodayResponse(
                date: day.date.description, timezone: day.timezone, appointments_today: day.responses,
                next_appointment: next?.1, current_appointment: current?.1,
                completed_count: completed, remaining_count: remaining))
    }

    struct DaySelection {
        let date: CalendarDay
        let timezone: String
        let appointments: [Appointment]
        let responses: [AppointmentResponse]
    }

    /// Checks in the contract's order, then the vet's appointments in their current practice on the local day.
    static func selection(_ req: Request) async throws -> DaySelection {
        let caller = try req.caller
        try caller.requireStaff()
        let vetID = try req.pathID("vet_user_id", .vetUser)
        if caller.isMember && vetID != caller.id {
            throw APIError.forbidden("Access denied. Can only view your own dashboard.")
        }
        let requestedDay = try req.queryParameters.day()
        let vet: User
        if vetID == caller.id {
            vet = caller.user
        } else {
            guard let found = try await User.find(vetID, on: req.db) else { throw APIError.notFound("Vet not found") }
            vet = found
        }
        guard vet.role.isMember, let practiceID = vet.practiceID,
            let practice = try await Practice.find(practiceID, on: req.db)
        else { throw APIError.notFound("Vet not found") }

        let zone = practice.timeZone
        let day = requestedDay ?? LocalDay.day(containing: req.now, in: zone)
        let window = LocalDay.window(of: day, in: zone)
        let appointments = try await Appointment.query(on: req.db)
            .filter(\.$assignedVetUserID == vetID)
            .filter(\.$practiceID == practiceID)
            .filter(\.$appointmentDate >= window.lowerBound)
            .filter(\.$appointmentDate < window.upperBound)
            .sort(\.$appointmentDate).sort(\.$id)
            .all()
        let responses = try await AppointmentAssembler.responses(for: appointments, on: req.db)
        return DaySelection(date: day, timezone: practice.timezone, appointments: appointments, responses: responses)
    }
}
