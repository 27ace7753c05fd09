import AppCore
import Fluent
import Foundation

/// The vet's reminder by push before an appointment (docs/notifications.md, Push, "Events"): once the start is
/// `PUSH_REMINDER_MINUTES` away (15 by default, 0 = none), to the assigned vet's phones, for appointments still
/// scheduled or confirmed. At most one per appointment and start time, whatever the number of workers and restarts:
/// the outbox's unique index on (appointment_id, reminder_for) decides. A moved appointment gets a reminder for its
/// new time, and the queued reminder of its old time is withdrawn (`withdrawStaleReminders`).
package struct VetPushReminders: Sendable {
    package let db: any Database
    package let leadMinutes: Int
    package let metrics: MetricsRegistry?

    package init(db: any Database, leadMinutes: Int, metrics: MetricsRegistry? = nil) {
        self.db = db
        self.leadMinutes = leadMinutes
        self.metrics = metrics
    }

    /// Enqueues the reminders due at `now`; returns how many were enqueued.
    @discardableResult
    package func runOnce(now: Date) async throws -> Int {
        guard leadMinutes > 0 else { return 0 }
        var enqueued = 0
        for due in try await PushOutboxStore(db: db).dueVetReminders(now: now, lead: TimeInterval(leadMinutes * 60)) {
            if try await enqueue(due.id, start: due.start, now: now) { enqueued += 1 }
        }
        return enqueued
    }

    /// Under the appointment's row lock, so a cancellation or a move cannot slip in between the check and the insert.
    private func enqueue(_ id: UUID, start: Date, now: Date) async throws -> Bool {
        do {
            let metrics = self.metrics
            return try await db.writeTransaction { db -> Bool in
                try await AppointmentStore(db: db).lock(id, .forUpdate)
                guard let appointment = try await Appointment.find(id, on: db),
                    appointment.status == .scheduled || appointment.status == .confirmed,
                    appointment.appointmentDate == start, start > now,
                    let vetID = appointment.assignedVetUserID,
                    let owner = try await PetOwner.find(appointment.petOwnerID, on: db),
                    let practice = try await Practice.find(appointment.practiceID, on: db)
                else { return false }
                let petNames = try await AppointmentStore(db: db).petNames(of: id)
                try await NotificationOutboxStore(db: db).appointmentReminder(
                    appointmentID: id, start: start, for: vetID,
                    payload: PushMessages.reminderPayload(
                        appointmentID: id, start: start, ownerName: owner.fullName, petNames: petNames,
                        zone: practice.timeZone),
                    now: now, metrics: metrics)
                return true
            }
        } catch where DatabaseFailure.isUniqueViolation(error) {
            return false
        }
    }
}
