import AppCore
import Fluent
import Foundation
import SQLKit

/// A message to enqueue: rendered once, so every delivery attempt sends the same bytes and Message-ID.
package struct OutgoingMail: Sendable {
    package var messageID: String
    /// The product's name for what the message is (`password_reset`, `appointment_confirmation`, ...).
    package var kind: String
    package var appointmentID: UUID?
    package var icsSequence: Int?
    package var sender: String
    package var recipient: String
    package var rawMessage: String
    /// Reminders: the start time reminded of (at most one reminder per appointment and start time).
    package var reminderFor: Date? = nil
    /// Not delivered after this instant (a reminder of an appointment that has begun is dead-lettered instead).
    package var sendBefore: Date? = nil

    package init(
        messageID: String, kind: String, appointmentID: UUID? = nil, icsSequence: Int? = nil, sender: String,
        recipient: String, rawMessage: String, reminderFor: Date? = nil, sendBefore: Date? = nil
    ) {
        self.messageID = messageID
        self.kind = kind
        self.appointmentID = appointmentID
        self.icsSequence = icsSequence
        self.sender = sender
        self.recipient = recipient
        self.rawMessage = rawMessage
        self.reminderFor = reminderFor
        self.sendBefore = sendBefore
    }
}

/// A product's outbox table: every one has the columns of HelpPet's `mail_outbox` (M0126), so one store and one
/// delivery loop serve them all.
package struct MailOutboxTable: Sendable {
    package let name: String
    /// Extra SQL a due row must satisfy to be claimed (HelpPet: an appointment's messages go out in order), over
    /// the table under its own name.
    package let claimCondition: String?

    package init(name: String, claimCondition: String? = nil) {
        self.name = name
        self.claimCondition = claimCondition
    }
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

/// Every statement on a product's outbox table: enqueue in the caller's transaction, claim with a lease (the same
/// shape as the transcription queue: `FOR UPDATE SKIP LOCKED` on PostgreSQL, a conditional update inside
/// `BEGIN IMMEDIATE` on SQLite), mark sent, back off, dead-letter.
package struct MailOutboxStore: Sendable {
    package let db: any Database
    package let table: MailOutboxTable

    package init(db: any Database, table: MailOutboxTable) {
        self.db = db
        self.table = table
    }

    /// Inserts the message; false when a unique index refuses it (a reminder for the same appointment and start
    /// time that another worker wrote first).
    @discardableResult
    package func enqueue(_ mail: OutgoingMail, now: Date) async throws -> Bool {
        let rows = try await db.sql.raw("""
            INSERT INTO \(ident: table.name) (id, message_id, kind, appointment_id, ics_sequence, reminder_for, send_before, sender,
                recipient, raw_message, status, attempts, available_at, created_at, updated_at)
            VALUES (\(bind: UUID()), \(bind: mail.messageID), \(bind: mail.kind), \(bind: mail.appointmentID),
                \(bind: mail.icsSequence), \(bind: mail.reminderFor), \(bind: mail.sendBefore), \(bind: mail.sender),
                \(bind: mail.recipient), \(bind: mail.rawMessage), 'queued', 0, \(bind: now), \(bind: now), \(bind: now))
            ON CONFLICT DO NOTHING
            RETURNING id
            """).all()
        return !rows.isEmpty
    }

    /// `enqueue`, counting a queued message in `mail_messages_queued_total` (at the insert, the last statement of the
    /// caller's transaction: a commit that then fails over-counts one).
    @discardableResult
    package func enqueue(_ mail: OutgoingMail, now: Date, counting metrics: MetricsRegistry?) async throws -> Bool {
        let inserted = try await enqueue(mail, now: now)
        if inserted { metrics?.counter("mail_messages_queued_total", labels: [("channel", "email")]).increment() }
        return inserted
    }

    /// Claims the oldest due message: `queued` and due, or `sending` with an expired lease (its worker died).
    package func claim(owner processOwner: String, leaseSeconds: Int, now: Date) async throws -> ClaimedMail? {
        let owner = "\(processOwner)/\(UUID().uuidString.prefix(8).lowercased())"
        let lease = OutboxLease(
            table: table.name, due: "status = 'queued' AND available_at <= \(bind: now)",
            order: "available_at, created_at, ics_sequence, id",
            returning: "id, message_id, sender, recipient, raw_message, attempts, send_before",
            choosable: table.claimCondition)
        let expires = now.addingTimeInterval(TimeInterval(leaseSeconds))
        guard let claimed = try await lease.claim(owner: owner, expires: expires, now: now, on: db) else { return nil }
        return ClaimedMail(
            id: try claimed.decode(column: "id", as: UUID.self),
            messageID: try claimed.decode(column: "message_id", as: String.self),
            sender: try claimed.decode(column: "sender", as: String.self),
            recipient: try claimed.decode(column: "recipient", as: String.self),
            rawMessage: try claimed.decode(column: "raw_message", as: String.self),
            attempts: try claimed.decode(column: "attempts", as: Int.self), owner: owner,
            sendBefore: try claimed.decode(column: "send_before", as: Date?.self))
    }

    /// Delivered: the row stays, with `sent_at`, as the record that this Message-ID went out.
    /// False when the lease was no longer this worker's (it expired mid-send and another worker took the message).
    @discardableResult
    package func markSent(_ mail: ClaimedMail, now: Date) async throws -> Bool {
        try await !db.sql.raw("""
            UPDATE \(ident: table.name) SET status = 'sent', sent_at = \(bind: now), lease_owner = NULL,
                lease_expires_at = NULL, last_error = NULL, updated_at = \(bind: now)
            WHERE id = \(bind: mail.id) AND status = 'sending' AND lease_owner = \(bind: mail.owner)
            RETURNING id
            """).all().isEmpty
    }

    /// A transient failure: back to `queued`, due after `delay`.
    package func retryLater(_ mail: ClaimedMail, error: String, delay: TimeInterval, now: Date) async throws {
        try await db.sql.raw("""
            UPDATE \(ident: table.name) SET status = 'queued', available_at = \(bind: now.addingTimeInterval(delay)),
                lease_owner = NULL, lease_expires_at = NULL, last_error = \(bind: String(error.prefix(1000))),
                updated_at = \(bind: now)
            WHERE id = \(bind: mail.id) AND status = 'sending' AND lease_owner = \(bind: mail.owner)
            """).run()
    }

    /// Dead letter: a permanent failure, or the last allowed attempt failed. The reason is kept.
    package func markFailed(_ mail: ClaimedMail, error: String, now: Date) async throws {
        try await db.sql.raw("""
            UPDATE \(ident: table.name) SET status = 'failed', lease_owner = NULL, lease_expires_at = NULL,
                last_error = \(bind: String(error.prefix(1000))), updated_at = \(bind: now)
            WHERE id = \(bind: mail.id) AND status = 'sending' AND lease_owner = \(bind: mail.owner)
            """).run()
    }

    package func counts() async throws -> MailOutboxCounts {
        var counts = MailOutboxCounts()
        for row in try await db.sql.raw("SELECT status, COUNT(*) AS n FROM \(ident: table.name) GROUP BY status").all() {
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
