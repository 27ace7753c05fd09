import AppCore
import Fluent
import Foundation
import MailOutbox
import SQLKit

/// What kind of email a `mail_outbox` row holds.
package enum MailKind: String, Sendable {
    case appointmentConfirmation = "appointment_confirmation"
    case appointmentRescheduled = "appointment_rescheduled"
    case appointmentCancelled = "appointment_cancelled"
    case appointmentReminder = "appointment_reminder"
    case practiceInvitation = "practice_invitation"
    case dischargeInstructions = "discharge_instructions"
    case passwordReset = "password_reset"
    case passwordChanged = "password_changed"
}

extension MailOutboxTable {
    /// HelpPet's outbox (M0126). An appointment's calendar messages go out in SEQUENCE order: one waits while an
    /// earlier one of the same appointment is still queued or being sent (a dead-lettered one no longer holds it
    /// back). Instants are stored in whole seconds, so the creation time alone cannot order messages written in the
    /// same second.
    package static let helpPet = MailOutboxTable(name: "mail_outbox", claimCondition: """
        NOT EXISTS (SELECT 1 FROM mail_outbox earlier
                    WHERE earlier.appointment_id = mail_outbox.appointment_id
                      AND earlier.ics_sequence < mail_outbox.ics_sequence
                      AND earlier.status IN ('queued', 'sending'))
        """)
}

/// HelpPet's statements on `mail_outbox` that only appointments need: reminders and the iCalendar SEQUENCE.
extension MailOutboxStore {
    package init(db: any Database) { self.init(db: db, table: .helpPet) }

    /// Whether a reminder for this appointment and start time was ever enqueued.
    package func hasReminder(forAppointment id: UUID, start: Date) async throws -> Bool {
        try await db.sql.raw("""
            SELECT id FROM mail_outbox WHERE appointment_id = \(bind: id) AND reminder_for = \(bind: start)
            """).first() != nil
    }

    /// A queued reminder whose appointment was cancelled or moved is not sent (a moved one gets its own reminder).
    package func withdrawReminders(ofAppointment id: UUID, reason: String, now: Date) async throws {
        try await db.sql.raw("""
            UPDATE mail_outbox SET status = 'failed', last_error = \(bind: reason), updated_at = \(bind: now)
            WHERE appointment_id = \(bind: id) AND kind = 'appointment_reminder' AND status = 'queued'
            """).run()
    }

    /// The SEQUENCE the appointment's next calendar message carries: one more than the last one enqueued, 0 for the
    /// first. Called inside the transaction that holds the appointment's row lock, so two changes never share one.
    package func nextSequence(forAppointment id: UUID) async throws -> Int {
        let row = try await db.sql.raw(
            "SELECT MAX(ics_sequence) AS last FROM mail_outbox WHERE appointment_id = \(bind: id)").first()
        guard let last = try row?.decode(column: "last", as: Int?.self) else { return 0 }
        return last + 1
    }
}
