import AppCore
import Fluent
import Foundation
import Vapor

/// `PUT /appointments/{id}` (partial update, status transitions, pet diff) and `DELETE` (= cancel).
extension AppointmentsController {
    @Sendable func update(req: Request) async throws -> Response {
        let caller = try req.caller
        try caller.requireStaff()
        let id = try req.pathID("appointment_id", .appointment)
        let fields = try req.jsonObject()
        let changes = try AppointmentUpdateRequest(fields)
        guard fields.containsAny(of: AppointmentUpdateRequest.updatableKeys) else {
            throw APIError.nothingToUpdate
        }
        let current = try await req.visibility.appointment(id, for: caller)
        try fields.requireUnchanged("id", current: id.lowercased)
        try fields.requireUnchanged("practice_id", current: current.practiceID.lowercased)
        try fields.requireUnchanged("pet_owner_id", current: current.petOwnerID.lowercased)
        let updated = try await req.appointmentBooking.apply(
            changes, to: current, profile: ClientProfile(headers: req.headers), now: req.now)
        return try JSONResponse.make(try await req.appointments.response(for: updated))
    }

    @Sendable func cancel(req: Request) async throws -> Response {
        let caller = try req.caller
        try caller.requireStaff()
        let id = try req.pathID("appointment_id", .appointment)
        let current = try await req.visibility.appointment(id, for: caller)
        var changes = AppointmentUpdateRequest()
        changes.status = .cancelled
        let updated = try await req.appointmentBooking.apply(changes, to: current, profile: .standard, now: req.now)
        return try JSONResponse.make(try await req.appointments.response(for: updated))
    }
}
