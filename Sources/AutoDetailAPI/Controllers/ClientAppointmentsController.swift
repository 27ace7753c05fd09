import AppCore
import Fluent
import Foundation
import SQLKit
import Vapor

/// The client's appointments (contract §4.4): book, list own, show, cancel. Every route needs an API key; a key sees
/// the appointments it created, an organisation key with `fullAccess` every appointment (§2.8).
struct ClientAppointmentsController {
    func boot(keys: any RoutesBuilder) {
        keys.jsonRoute(.POST, "client", "appointments", use: create)
        keys.get("client", "appointments", use: list)
        keys.get("client", "appointments", ":appointmentId", use: show)
        keys.on(.POST, "client", "appointments", ":appointmentId", "cancel", use: cancel)
    }

    @Sendable func create(req: Request) async throws -> Response {
        let caller = try req.keyCaller
        let input = try BookingInput.parse(try req.autodetailBody(), admin: false, req: req)
        let service = try await input.resolveService(on: req.db)
        let draft = input.draft(
            service: service, source: caller.kind == .ios ? .ios : .api, installID: caller.installID,
            createdByKeyID: caller.keyID, credentialID: caller.keyID, rawBody: req.bodyData)
        let outcome = try await BookingTransaction.book(draft, admin: false, now: req.now, on: req.db)
        return try await Self.createdResponse(outcome, path: "/api/client/appointments", admin: false, req: req)
    }

    /// `201` with `Location`, for a new appointment or an idempotent replay (`Idempotent-Replayed: true`).
    static func createdResponse(_ outcome: BookingOutcome, path: String, admin: Bool, req: Request) async throws -> Response {
        let id: UUID
        var headers = HTTPHeaders()
        switch outcome {
        case .created(let created): id = created
        case .replayed(let earlier):
            id = earlier
            headers.add(name: "Idempotent-Replayed", value: "true")
        }
        guard let appointment = try await AppointmentRecord.find(id, on: req.db) else { throw APIError.appointmentNotFound }
        headers.add(name: .location, value: "\(path)/\(id.lowercased)")
        return try JSONResponse.make(
            try await AppointmentAssembler.response(appointment, admin: admin, req: req), status: .created, headers: headers)
    }

    @Sendable func list(req: Request) async throws -> Response {
        let caller = try req.keyCaller
        let query = QueryReader(req)
        let status = try query.oneOf("status", AppointmentStatus.allCases.map(\.rawValue))
        let phone = try query.phone("phone")
        let page = try query.pagination()
        let filtered = { () -> QueryBuilder<AppointmentRecord> in
            let q = AppointmentRecord.query(on: req.db)
            if !caller.seesEverything { q.filter(\.$createdByKeyID == caller.keyID) }
            if let status { q.filter(\.$status == status) }
            if let phone { q.filter(\.$phone == phone) }
            return q
        }
        let total = try await filtered().count()
        let rows = try await filtered().sort(\.$startAt, .descending).sort(\.$id, .ascending)
            .range(page.range).all()
        return try JSONResponse.page(try await AppointmentAssembler.responses(rows, admin: false, req: req), total: total)
    }

    @Sendable func show(req: Request) async throws -> Response {
        let appointment = try await Self.visibleAppointment(req)
        return try JSONResponse.make(try await AppointmentAssembler.response(appointment, admin: false, req: req))
    }

    /// §4.4.4: `new`/`confirmed` before the start → `cancelled`; already cancelled → 200 unchanged.
    @Sendable func cancel(req: Request) async throws -> Response {
        var appointment = try await Self.visibleAppointment(req)
        for _ in 0..<3 {
            let now = req.now
            switch appointment.statusValue {
            case .cancelled:
                return try JSONResponse.make(try await AppointmentAssembler.response(appointment, admin: false, req: req))
            case .in_progress, .done:
                throw StatusTransitions.refusal(from: appointment.statusValue, to: .cancelled)
            case .new, .confirmed:
                guard now < appointment.startAt else { throw APIError.conflict("Appointment has already started") }
            }
            if let updated = try await AppointmentStatusChange.apply(
                appointment.id!, from: appointment.statusValue, to: .cancelled, now: now, on: req.db)
            {
                return try JSONResponse.make(try await AppointmentAssembler.response(updated, admin: false, req: req))
            }
            // The status changed meanwhile: decide again on the current row.
            guard let current = try await AppointmentRecord.find(appointment.id!, on: req.db) else {
                throw APIError.appointmentNotFound
            }
            appointment = current
        }
        throw APIError.serviceUnavailable
    }

    /// The path's appointment if the calling key may see it; `404 Appointment not found` otherwise (§2.8).
    static func visibleAppointment(_ req: Request) async throws -> AppointmentRecord {
        let caller = try req.keyCaller
        let id = try req.pathID("appointmentId", notFound: .appointmentNotFound)
        guard let appointment = try await AppointmentRecord.find(id, on: req.db), caller.canSee(appointment) else {
            throw APIError.appointmentNotFound
        }
        return appointment
    }
}
