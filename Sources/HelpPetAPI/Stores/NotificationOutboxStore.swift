import AppCore
import Fluent
import Foundation

/// Writes push notifications to `notification_outbox` in the caller's transaction (PushDelivery sends them), with the
/// payload keys the app's notification handler reads (`type`, `appointment_id`, `pet_owner_name`, `pet_name`,
/// `appointment_time`; `visit_id` and `pet_id` for a note).
struct NotificationOutboxStore: Sendable {
    let db: any Database

    func appointmentBooked(
        _ appointment: Appointment, for vetID: UUID, ownerName: String, petNames: [String], now: Date, metrics: MetricsRegistry? = nil
    ) async throws {
        try await insert(kind: "appointment_booked", for: vetID, payload: [
            "type": .string("appointment_booked"),
            "appointment_id": .string(appointment.id!.lowercased),
            "pet_owner_name": .string(ownerName),
            "pet_name": .string(petNames.joined(separator: ", ")),
            "appointment_time": .string(WireTime.format(appointment.appointmentDate)),
        ], appointmentID: appointment.id, now: now, metrics: metrics)
    }

    /// The visit's note was drafted from its transcript: the vet who recorded it reviews it.
    func noteReady(_ visit: Visit, now: Date, metrics: MetricsRegistry? = nil) async throws {
        let pet = try await Pet.find(visit.petID, on: db)
        var payload: [String: JSONValue] = [
            "type": .string("note_ready"),
            "visit_id": .string(visit.id!.lowercased),
            "pet_id": .string(visit.petID.lowercased),
            "pet_name": .string(pet?.name ?? ""),
        ]
        if let appointmentID = visit.appointmentID { payload["appointment_id"] = .string(appointmentID.lowercased) }
        try await insert(
            kind: "note_ready", for: visit.createdBy, payload: payload, appointmentID: visit.appointmentID, now: now, metrics: metrics)
    }

    /// The vet's reminder before an appointment (`VetPushReminders`). A second one for the same start violates
    /// M0132's unique index, which fails the caller's transaction.
    func appointmentReminder(
        appointmentID: UUID, start: Date, for vetID: UUID, payload: [String: JSONValue], now: Date, metrics: MetricsRegistry?
    ) async throws {
        try await insert(
            kind: "appointment_reminder", for: vetID, payload: payload, appointmentID: appointmentID, reminderFor: start,
            now: now, metrics: metrics)
    }

    private func insert(
        kind: String, for userID: UUID, payload: [String: JSONValue], appointmentID: UUID?, reminderFor: Date? = nil,
        now: Date, metrics: MetricsRegistry?
    ) async throws {
        let entry = NotificationOutboxEntry()
        entry.id = UUID()
        entry.userID = userID
        entry.kind = kind
        entry.payload = payload
        entry.createdAt = now
        // For the delivery log (M0132); reminders also carry the start they are for.
        entry.appointmentID = appointmentID
        entry.reminderFor = reminderFor
        try await entry.create(on: db)
        // Counted at the insert, like the mail's queued counter (a commit that then fails over-counts one).
        metrics?.counter("mail_messages_queued_total", labels: [("channel", "push")]).increment()
    }
}
