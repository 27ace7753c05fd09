import AppCore
import Foundation
import Vapor

/// Appointments in the console (contract §4.7.4): every appointment, the admin representation (with `installId`
/// and photo `mismatch`), bookings with the admin slot rules (§6 rule 16), and status changes by the §5 table.
struct AdminAppointmentsController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.get("appointments", use: list)
        routes.jsonRoute(.POST, "appointments", use: create)
        routes.get("appointments", ":appointmentId", use: show)
        routes.jsonRoute(.PUT, "appointments", ":appointmentId", use: update)
    }

    /// Paginated, `startIso` ascending then `id`; filters by studio-local day(s), status, phone, search, install.
    @Sendable func list(req: Request) async throws -> Response {
        let query = req.autodetailQuery
        let date = try query.day("date")
        let from = try query.day("from")
        let to = try query.day("to")
        if date != nil && (from != nil || to != nil) {
            throw APIError.invalidParameter("date", "cannot be combined with from/to")
        }
        if let from, let to, to < from { throw APIError.invalidParameter("to", "must not be before from") }
        let status = try query.oneOf("status", AppointmentStatus.allCases.map(\.rawValue))
        let phone = try query.normalized("phone", ContactNormalization.phone)
        let search = try query.search("search")
        let installID = try query.uuid("installId")
        let page = try query.pagination()

        let clock = try await req.studioSettings.current().clock
        var filter = AppointmentFilter(status: status, phone: phone, installID: installID, search: search)
        if let date {
            filter.startFrom = clock.startOfDay(date)
            filter.startBefore = clock.startOfDay(date.adding(days: 1))
        }
        if let from { filter.startFrom = clock.startOfDay(from) }
        if let to { filter.startBefore = clock.startOfDay(to.adding(days: 1)) }
        let result = try await req.bookings.page(filter, ascending: true, limit: page.limit, offset: page.offset)
        return try JSONResponse.page(await AppointmentAssembler.responses(result.items, admin: true, req: req),
                                     total: result.total)
    }

    @Sendable func show(req: Request) async throws -> Response {
        let id = try req.pathID("appointmentId", malformed: .appointmentNotFound)
        guard let item = try await req.bookings.appointment(id, scope: .everything) else {
            throw APIError.appointmentNotFound
        }
        return try JSONResponse.make(await AppointmentAssembler.response(item, admin: true, req: req))
    }

    @Sendable func create(req: Request) async throws -> Response {
        let caller = try req.adminCaller
        let input = try BookingRequest.parse(try req.autodetailBody(), admin: true, req: req)
        let service = try await input.resolveService(req.services)
        let draft = input.draft(
            service: service, source: .admin, installID: nil, createdByKeyID: nil, credentialID: caller.userID,
            rawBody: req.bodyData)
        let outcome = try await BookingTransaction.book(draft, admin: true, now: req.now, on: req.db)
        return try await ClientAppointmentsController.createdResponse(
            outcome, path: "/api/admin/appointments", admin: true, req: req)
    }

    /// `status` by the §5 table (no clock checks) and/or `notes`; `updatedAt` bumped only when something changed.
    @Sendable func update(req: Request) async throws -> Response {
        let body = try req.autodetailBody()
        let id = try req.pathID("appointmentId", malformed: .appointmentNotFound)
        guard var item = try await req.bookings.appointment(id, scope: .everything) else {
            throw APIError.appointmentNotFound
        }
        guard body.contains("status") || body.contains("notes") else { throw APIError.nothingToUpdate }
        try body.rejectNull("status")
        let requested = try body.oneOf("status", AppointmentStatus.allCases.map(\.rawValue)).flatMap(AppointmentStatus.init)
        let notesGiven = body.contains("notes")
        let notes = try body.string("notes", max: 500, lines: .multi)

        for _ in 0..<3 {
            let appointment = item.appointment
            let current = appointment.statusValue
            var target = current
            if let requested {
                switch StatusTransitions.admin(from: current, to: requested) {
                case .noOp: break
                case .allowed: target = requested
                case .refused: throw StatusTransitions.refusal(from: current, to: requested)
                }
            }
            let newNotes = notesGiven ? notes : appointment.notes
            if target == current && newNotes == appointment.notes {
                return try JSONResponse.make(await AppointmentAssembler.response(item, admin: true, req: req))
            }
            let applied = try await req.bookings.update(
                id, expected: current, status: target, notes: newNotes, now: req.now)
            guard let fresh = try await req.bookings.appointment(id, scope: .everything) else {
                throw APIError.appointmentNotFound
            }
            item = fresh
            if applied { return try JSONResponse.make(await AppointmentAssembler.response(item, admin: true, req: req)) }
        }
        throw APIError.serviceUnavailable
    }
}
