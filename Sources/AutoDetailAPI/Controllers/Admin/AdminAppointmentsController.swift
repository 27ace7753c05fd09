import AppCore
import Fluent
import Foundation
import SQLKit
import Vapor

/// Appointments in the console (contract §4.7.4): every appointment, the admin representation (with `installId`
/// and photo `mismatch`), bookings with the admin slot rules (§6 rule 16), and status changes by the §5 table.
struct AdminAppointmentsController {
    func boot(admin: any RoutesBuilder) {
        admin.get("appointments", use: list)
        admin.jsonRoute(.POST, "appointments", use: create)
        admin.get("appointments", ":appointmentId", use: show)
        admin.jsonRoute(.PUT, "appointments", ":appointmentId", use: update)
    }

    /// Paginated, `startIso` ascending then `id`; filters by studio-local day(s), status, phone, search, install.
    @Sendable func list(req: Request) async throws -> Response {
        let query = QueryReader(req)
        let date = try query.day("date")
        let from = try query.day("from")
        let to = try query.day("to")
        if date != nil && (from != nil || to != nil) {
            throw APIError.invalidParameter("date", "cannot be combined with from/to")
        }
        if let from, let to, to < from { throw APIError.invalidParameter("to", "must not be before from") }
        let status = try query.oneOf("status", AppointmentStatus.allCases.map(\.rawValue))
        let phone = try query.phone("phone")
        let search = try query.search("search")
        let installID = try query.uuid("installId")
        let page = try query.pagination()

        let clock = try await StudioSettingsStore.current(on: req.db).clock
        var lower: Date?, upper: Date?
        if let date {
            lower = clock.startOfDay(date)
            upper = clock.startOfDay(date.adding(days: 1))
        }
        if let from { lower = clock.startOfDay(from) }
        if let to { upper = clock.startOfDay(to.adding(days: 1)) }
        let function = req.db.engine == .postgres ? "strpos" : "instr"
        let filtered = { () -> QueryBuilder<AppointmentRecord> in
            let q = AppointmentRecord.query(on: req.db)
            if let lower { q.filter(\.$startAt >= lower) }
            if let upper { q.filter(\.$startAt < upper) }
            if let status { q.filter(\.$status == status) }
            if let phone { q.filter(\.$phone == phone) }
            if let installID { q.filter(\.$installID == installID) }
            // `search_text` holds client name, plate, phone and service name lower-cased (computed in Swift, so the
            // match is Unicode-aware on both engines).
            if let search { q.filter(.sql(embed: "\(unsafeRaw: function)(search_text, \(bind: search)) > 0")) }
            return q
        }
        let total = try await filtered().count()
        let rows = try await filtered().sort(\.$startAt, .ascending).sort(\.$id, .ascending)
            .range(page.range).all()
        return try JSONResponse.page(try await AppointmentAssembler.responses(rows, admin: true, req: req), total: total)
    }

    @Sendable func show(req: Request) async throws -> Response {
        let id = try req.pathID("appointmentId", notFound: .appointmentNotFound)
        guard let appointment = try await AppointmentRecord.find(id, on: req.db) else { throw APIError.appointmentNotFound }
        return try JSONResponse.make(try await AppointmentAssembler.response(appointment, admin: true, req: req))
    }

    @Sendable func create(req: Request) async throws -> Response {
        let caller = try req.adminCaller
        let input = try BookingInput.parse(try req.autodetailBody(), admin: true, req: req)
        let service = try await input.resolveService(on: req.db)
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
        let id = try req.pathID("appointmentId", notFound: .appointmentNotFound)
        guard var appointment = try await AppointmentRecord.find(id, on: req.db) else { throw APIError.appointmentNotFound }
        guard body.has("status") || body.has("notes") else { throw APIError.nothingToUpdate }
        try body.rejectNull("status")
        let requested = try body.oneOf("status", AppointmentStatus.allCases.map(\.rawValue)).flatMap(AppointmentStatus.init)
        let notesGiven = body.has("notes")
        let notes = try body.string("notes", max: 500, lines: .multi)

        for _ in 0..<3 {
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
                return try JSONResponse.make(try await AppointmentAssembler.response(appointment, admin: true, req: req))
            }
            let rows = try await req.db.sql.raw("""
                UPDATE ad_appointments SET status = \(bind: target.rawValue), notes = \(bind: newNotes),
                    updated_at = \(bind: req.now)
                WHERE id = \(bind: id) AND status = \(bind: current.rawValue)
                RETURNING id
                """).all()
            guard let fresh = try await AppointmentRecord.find(id, on: req.db) else { throw APIError.appointmentNotFound }
            appointment = fresh
            if !rows.isEmpty {
                return try JSONResponse.make(try await AppointmentAssembler.response(appointment, admin: true, req: req))
            }
        }
        throw APIError.serviceUnavailable
    }
}
