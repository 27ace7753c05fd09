import AppCore
import Fluent
import Foundation
import SQLKit

/// What kind of email an outbox row holds.
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

/// A message to enqueue: rendered once, so every delivery attempt sends the same bytes and Message-ID.
package struct OutgoingMail: Sendable {
    package var messageID: String
    package var kind: MailKind
    package var appointmentID: UUID?
    package var icsSequence: Int?
    package var sender: String
    package var recipient: String
    package var rawMessage: String
    /// Reminders: the start time reminded of (at most one reminder per appointment and start time).
    package var reminderFor: Date? = nil
    /// Not delivered after this instant (a reminder of an appointment that has begun is dead-lettered instead).
    package var sendBefore: Date? = nil
}

/// A message this process holds the lease of.
package struct ClaimedMail: Sendable, Equatable {
    package var id: UUID
    package var messageID: String
    package var sender: String
    package var recipient: String
    package var rawMessage: String
    /// Including this attempt.
    package var attempts: Int
    package var owner: String
    package var sendBefore: Date? = nil
}

/// Counts per status, for `/metrics` and the tests.
package struct MailOutboxCounts: Sendable, Equatable {
    package var queued = 0
    package var sending = 0
    package var sent = 0
    package var failed = 0

    package init(queued: Int = 0, sending: Int = 0, sent: Int = 0, failed: Int = 0) {
        self.queued = queued
        self.sending = sending
        self.sent = sent
        self.failed = failed
    }
}

/// Every statement on `mail_outbox` (M0126): enqueue in the caller's transaction, claim with a lease (the same
/// shape as the transcription queue: `FOR UPDATE SKIP LOCKED` on PostgreSQL, a conditional update inside
/// `BEGIN IMMEDIATE` on SQLite), mark sent, back off, dead-letter.
package struct MailOutboxStore: Sendable {
    package let db: any Database

    package init(db: any Database) { self.db = db }

    /// Inserts the message; false when a reminder for the same appointment and start time exists already (another
    /// worker wrote it first: the unique index decides).
    @discardableResult
    package func enqueue(_ mail: OutgoingMail, now: Date) async throws -> Bool {
        let rows = try await db.sql.raw("""
            INSERT INTO mail_outbox (id, message_id, kind, appointment_id, ics_sequence, reminder_for, send_before, sender,
                recipient, raw_message, status, attempts, available_at, created_at, updated_at)
            VALUES (\(bind: UUID()), \(bind: mail.messageID), \(bind: mail.kind.rawValue), \(bind: mail.appointmentID),
                \(bind: mail.icsSequence), \(bind: mail.reminderFor), \(bind: mail.sendBefore), \(bind: mail.sender),
                \(bind: mail.recipient), \(bind: mail.rawMessage), 'queued', 0, \(bind: now), \(bind: now), \(bind: now))
            ON CONFLICT DO NOTHING
            RETURNING id
            """).all()
        return !rows.isEmpty
    }

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

    /// An appointment's calendar messages go out in SEQUENCE order: one waits while an earlier one of the same
    /// appointment is still queued or being sent (a dead-lettered one no longer holds it back). Instants are stored
    /// in whole seconds, so the creation time alone cannot order messages written in the same second.
    static let noEarlierPending = """
        NOT EXISTS (SELECT 1 FROM mail_outbox earlier
                    WHERE earlier.appointment_id = mail_outbox.appointment_id
                      AND earlier.ics_sequence < mail_outbox.ics_sequence
                      AND earlier.status IN ('queued', 'sending'))
        """

    /// Claims the oldest due message: `queued` and due, or `sending` with an expired lease (its worker died).
    package func claim(owner processOwner: String, leaseSeconds: Int, now: Date) async throws -> ClaimedMail? {
        let owner = "\(processOwner)/\(UUID().uuidString.prefix(8).lowercased())"
        let expires = now.addingTimeInterval(TimeInterval(leaseSeconds))
        // A plain read first, so an idle poll never takes SQLite's write lock (or opens a PostgreSQL transaction).
        let due = try await db.sql.raw("""
            SELECT id FROM mail_outbox
            WHERE ((status = 'queued' AND available_at <= \(bind: now))
               OR (status = 'sending' AND lease_expires_at < \(bind: now)))
              AND \(unsafeRaw: Self.noEarlierPending)
            LIMIT 1
            """).first()
        guard due != nil else { return nil }
        return try await db.writeTransaction { db -> ClaimedMail? in
            let lock = db.engine == .postgres ? " FOR UPDATE SKIP LOCKED" : ""
            guard let row = try await db.sql.raw("""
                SELECT id FROM mail_outbox
                WHERE ((status = 'queued' AND available_at <= \(bind: now))
                   OR (status = 'sending' AND lease_expires_at < \(bind: now)))
                  AND \(unsafeRaw: Self.noEarlierPending)
                ORDER BY available_at, created_at, ics_sequence, id
                LIMIT 1\(unsafeRaw: lock)
                """).first() else { return nil }
            let candidate = try row.decode(column: "id", as: UUID.self)
            guard let claimed = try await db.sql.raw("""
                UPDATE mail_outbox SET status = 'sending', lease_owner = \(bind: owner),
                    lease_expires_at = \(bind: expires), attempts = attempts + 1, updated_at = \(bind: now)
                WHERE id = \(bind: candidate) AND ((status = 'queued' AND available_at <= \(bind: now))
                       OR (status = 'sending' AND lease_expires_at < \(bind: now)))
                RETURNING id, message_id, sender, recipient, raw_message, attempts, send_before
                """).first() else { return nil }
            return ClaimedMail(
                id: try claimed.decode(column: "id", as: UUID.self),
                messageID: try claimed.decode(column: "message_id", as: String.self),
                sender: try claimed.decode(column: "sender", as: String.self),
                recipient: try claimed.decode(column: "recipient", as: String.self),
                rawMessage: try claimed.decode(column: "raw_message", as: String.self),
                attempts: try claimed.decode(column: "attempts", as: Int.self), owner: owner,
                sendBefore: try claimed.decode(column: "send_before", as: Date?.self))
        }
    }

    /// Delivered: the row stays, with `sent_at`, as the record that this Message-ID went out.
    /// False when the lease was no longer this worker's (it expired mid-send and another worker took the message).
    @discardableResult
    package func markSent(_ mail: ClaimedMail, now: Date) async throws -> Bool {
        try await !db.sql.raw("""
            UPDATE mail_outbox SET status = 'sent', sent_at = \(bind: now), lease_owner = NULL,
                lease_expires_at = NULL, last_error = NULL, updated_at = \(bind: now)
            WHERE id = \(bind: mail.id) AND status = 'sending' AND lease_owner = \(bind: mail.owner)
            RETURNING id
            """).all().isEmpty
    }

    /// A transient failure: back to `queued`, due after `delay`.
    package func retryLater(_ mail: ClaimedMail, error: String, delay: TimeInterval, now: Date) async throws {
        try await db.sql.raw("""
            UPDATE mail_outbox SET status = 'queued', available_at = \(bind: now.addingTimeInterval(delay)),
                lease_owner = NULL, lease_expires_at = NULL, last_error = \(bind: String(error.prefix(1000))),
                updated_at = \(bind: now)
            WHERE id = \(bind: mail.id) AND status = 'sending' AND lease_owner = \(bind: mail.owner)
            """).run()
    }

    /// Dead letter: a permanent failure, or the last allowed attempt failed. The reason is kept.
    package func markFailed(_ mail: ClaimedMail, error: String, now: Date) async throws {
        try await db.sql.raw("""
            UPDATE mail_outbox SET status = 'failed', lease_owner = NULL, lease_expires_at = NULL,
                last_error = \(bind: String(error.prefix(1000))), updated_at = \(bind: now)
            WHERE id = \(bind: mail.id) AND status = 'sending' AND lease_owner = \(bind: mail.owner)
            """).run()
    }

    package func counts() async throws -> MailOutboxCounts {
        var counts = MailOutboxCounts()
        for row in try await db.sql.raw("SELECT status, COUNT(*) AS n FROM mail_outbox GROUP BY status").all() {
            let n = try row.decode(column: "n", as: Int.self)
            switch try row.decode(column: "status", as: String.self) {
            case "queued": counts.queued = n
            case "sending": counts.sending = n
            case "sent": counts.sent = n
            case "failed": counts.failed = n
            default: break
            }
        }
        return counts
    }
}
