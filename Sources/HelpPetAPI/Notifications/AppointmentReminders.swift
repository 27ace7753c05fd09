import AppCore
import Fluent
import Foundation
import SQLKit

/// The reminder email before an appointment: once the practice's lead time (`practices.appointment_reminder_hours`,
/// 24 by default, 0 = none) before the start has come, for appointments still scheduled or confirmed that have not
/// begun. At most one per appointment and start time, whatever the number of workers and restarts: the outbox's
/// unique index on (appointment_id, reminder_for) decides. A moved appointment gets a reminder for its new time.
/// An appointment booked inside its lead time gets none: its owner has just had the confirmation.
package struct AppointmentReminders: Sendable {
    package let db: any Database
    package let mailFrom: String
    package let metrics: MetricsRegistry?

    package init(db: any Database, mailFrom: String, metrics: MetricsRegistry? = nil) {
        self.db = db
        self.mailFrom = mailFrom
        self.metrics = metrics
    }

    /// Enqueues the reminders due at `now`; returns how many were enqueued. The scan selects only appointments whose
    /// reminder is due and whose owner wants email, so the batch limit never fills with ones that are skipped.
    @discardableResult
    package func runOnce(now: Date) async throws -> Int {
        let t = SchemaTypes(db.engine)
        // Instants are REAL seconds on SQLite and TIMESTAMPTZ on PostgreSQL: "start minus the lead time" per engine.
        let leadStart = db.engine == .postgres
            ? "a.appointment_date - p.appointment_reminder_hours * INTERVAL '1 hour'"
            : "a.appointment_date - p.appointment_reminder_hours * 3600"
        let candidates = try await db.sql.raw("""
            SELECT a.id, a.appointment_date
            FROM appointments a
            JOIN practices p ON p.id = a.practice_id
            JOIN pet_owners o ON o.id = a.pet_owner_id
            WHERE a.status IN ('scheduled', 'confirmed') AND p.appointment_reminder_hours > 0
              AND a.appointment_date > \(bind: now)
              AND \(unsafeRaw: leadStart) <= \(bind: now)
              AND a.created_at < \(unsafeRaw: leadStart)
              AND o.notifications_enabled = \(unsafeRaw: t.true)
              AND (o.preferred_communication IS NULL OR o.preferred_communication = 'email')
              AND NOT EXISTS (SELECT 1 FROM mail_outbox m
                              WHERE m.appointment_id = a.id AND m.reminder_for = a.appointment_date)
            ORDER BY a.appointment_date, a.id
            LIMIT 500
            """).all()
        var enqueued = 0
        for row in candidates {
            let id = try row.decode(column: "id", as: UUID.self)
            let start = try row.decode(column: "appointment_date", as: Date.self)
            if try await enqueue(id, start: start, now: now) { enqueued += 1 }
        }
        return enqueued
    }

    /// Under the appointment's row lock, so a cancellation or a move cannot slip in between the check and the insert.
    private func enqueue(_ id: UUID, start: Date, now: Date) async throws -> Bool {
        let mailFrom = self.mailFrom
        let metrics = self.metrics
        return try await db.writeTransaction { db in
            try await AppointmentStore(db: db).lock(id, .forUpdate)
            guard let appointment = try await Appointment.find(id, on: db),
                appointment.status == .scheduled || appointment.status == .confirmed,
                appointment.appointmentDate == start, start > now
            else { return false }
            return try await AppointmentEmails(db: db, mailFrom: mailFrom, metrics: metrics)
                .enqueue(.appointmentReminder, appointment: appointment, now: now)
        }
    }
}
