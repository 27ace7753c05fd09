import AppCore
import Foundation
import Vapor

/// The client's appointments (contract §4.4): book, list own, show, cancel. Every route needs an API key; a key sees
/// the appointments it created, an organisation key with `fullAccess` every appointment (§2.8) — applied inside the
/// stores' SQL (`KeyCaller.scope`).
struct ClientAppointmentsController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        routes.jsonRoute(.POST, "client", "appointments", use: create)
        routes.get("client", "appointments", use: list)
        routes.get("client", "appointments", ":appointmentId", use: show)
        routes.on(.POST, "client", "appointments", ":appointmentId", "cancel", use: cancel)
    }

    @Sendable func create(req: Request) async throws -> Response {
        let caller = try req.keyCaller
        let input = try BookingRequest.parse(try req.autodetailBody(), admin: false, req: req)
        let service = try await input.resolveService(req.services)
        let draft = input.draft(
            service: service, source: caller.kind == .ios ? .ios : .api, installID: caller.installID,
            createdByKeyID: caller.keyID, credentialID: caller.keyID, rawBody: req.bodyData)
        let outcome = try await BookingTransaction.book(draft, admin: false, now: req.now, on: req.db)
        return try await Self.createdResponse(outcome, path: "/api/client/appointments", admin: false, req: req)
    }

    /// `201` with `Location`, for a new appointment (built from the inserted row, no read) or an idempotent replay
    /// (`Idempotent-Replayed: true`, the appointment as it is now).
    static func createdResponse(_ outcome: BookingOutcome, path: String, admin: Bool, req: Request) async throws -> Response {
        var headers = HTTPHeaders()
        let response: AppointmentResponse
        switch outcome {
        case .created(let row):
            response = AppointmentAssembler.response(created: row, admin: admin)
        case .replayed(let earlier):
            headers.add(name: "Idempotent-Replayed", value: "true")
            guard let item = try await req.bookings.appointment(earlier, scope: .everything) else {
                throw APIError.appointmentNotFound
            }
            response = await AppointmentAssembler.response(item, admin: admin, req: req)
        }
        headers.add(name: .location, value: "\(path)/\(response.id)")
        return try JSONResponse.make(response, status: .created, headers: headers)
    }

    @Sendable func list(req: Request) async throws -> Response {
        let caller = try req.keyCaller
        let query = req.autodetailQuery
        var filter = AppointmentFilter(scope: caller.scope)
        filter.status = try query.oneOf("status", AppointmentStatus.allCases.map(\.rawValue))
        filter.phone = try query.normalized("phone", ContactNormalization.phone)
        let page = try query.pagination()
        let result = try await req.bookings.page(filter, ascending: false, limit: page.limit, offset: page.offset)
        return try JSONResponse.page(await AppointmentAssembler.responses(result.items, admin: false, req: req),
                                     total: result.total)
    }

    @Sendable func show(req: Request) async throws -> Response {
        let item = try await Self.visibleAppointment(req)
        return try JSONResponse.make(await AppointmentAssembler.response(item, admin: false, req: req))
    }

    /// §4.4.4: `new`/`confirmed` before the start → `cancelled`; already cancelled → 200 unchanged.
    @Sendable func cancel(req: Request) async throws -> Response {
        let scope = try req.keyCaller.scope
        var item = try await Self.visibleAppointment(req)
        for _ in 0..<3 {
            let now = req.now
            let appointment = item.appointment
            switch appointment.statusValue {
            case .cancelled:
                return try JSONResponse.make(await AppointmentAssembler.response(item, admin: false, req: req))
            case .in_progress, .done:
                throw StatusTransitions.refusal(from: appointment.statusValue, to: .cancelled)
            case .new, .confirmed:
                guard now < appointment.startAt else { throw APIError.conflict("Appointment has already started") }
            }
            let changed = try await req.bookings.changeStatus(
                appointment.id, from: appointment.statusValue, to: .cancelled, now: now)
            // Applied: answer the row as it is now. Not applied: the status changed meanwhile, decide again.
            guard let current = try await req.bookings.appointment(appointment.id, scope: scope) else {
                throw APIError.appointmentNotFound
            }
            item = current
            if changed { return try JSONResponse.make(await AppointmentAssembler.response(item, admin: false, req: req)) }
        }
        throw APIError.serviceUnavailable
    }

    /// The path's appointment if the calling key may see it; `404 Appointment not found` otherwise (§2.8).
    static func visibleAppointment(_ req: Request) async throws -> AppointmentWithPhotos {
        let scope = try req.keyCaller.scope
        let id = try req.pathID("appointmentId", malformed: .appointmentNotFound)
        guard let item = try await req.bookings.appointment(id, scope: scope) else { throw APIError.appointmentNotFound }
        return item
    }
}
