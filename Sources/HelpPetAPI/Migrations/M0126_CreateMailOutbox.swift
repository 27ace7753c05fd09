import AppCore
import Fluent
import SQLKit

/// One row per outgoing email (docs/notifications.md): the rendered message, its delivery state and lease, and for
/// appointment emails the appointment and the iCalendar SEQUENCE it carried (so a reschedule after a restart still
/// counts on from the last one sent). `message_id` is unique: it is the idempotency record of a delivery. A reminder
/// row names the start time it reminds of (`reminder_for`), unique per appointment, and is not sent after that time
/// (`send_before`); practices get their reminder lead time.
struct M0126_CreateMailOutbox: AsyncMigration {
    var name: String { "M0126_CreateMailOutbox" }

    func prepare(on database: any Database) async throws {
        let t = SchemaTypes(database.engine)
        try await database.sql.raw("""
            CREATE TABLE mail_outbox (
                id \(unsafeRaw: t.uuid) PRIMARY KEY,
                message_id \(unsafeRaw: t.text) NOT NULL,
                kind \(unsafeRaw: t.text) NOT NULL
                    CHECK (kind IN ('appointment_confirmation', 'appointment_rescheduled', 'appointment_cancelled',
                        'appointment_reminder')),
                appointment_id \(unsafeRaw: t.uuid),
                ics_sequence \(unsafeRaw: t.int),
                reminder_for \(unsafeRaw: t.timestamp),
                send_before \(unsafeRaw: t.timestamp),
                sender \(unsafeRaw: t.text) NOT NULL,
                recipient \(unsafeRaw: t.text) NOT NULL,
                raw_message \(unsafeRaw: t.text) NOT NULL,
                status \(unsafeRaw: t.text) NOT NULL CHECK (status IN ('queued', 'sending', 'sent', 'failed')),
                attempts \(unsafeRaw: t.int) NOT NULL,
                available_at \(unsafeRaw: t.timestamp) NOT NULL,
                lease_owner \(unsafeRaw: t.text),
                lease_expires_at \(unsafeRaw: t.timestamp),
                last_error \(unsafeRaw: t.text),
                created_at \(unsafeRaw: t.timestamp) NOT NULL,
                updated_at \(unsafeRaw: t.timestamp) NOT NULL,
                sent_at \(unsafeRaw: t.timestamp)
            )
            """).run()
        try await database.sql.raw("CREATE UNIQUE INDEX mail_outbox_message_id ON mail_outbox (message_id)").run()
        try await database.sql.raw(
            "CREATE INDEX mail_outbox_due ON mail_outbox (available_at) WHERE status IN ('queued', 'sending')").run()
        try await database.sql.raw("CREATE INDEX mail_outbox_appointment ON mail_outbox (appointment_id, ics_sequence)").run()
        // At most one reminder per appointment and start time, whichever worker or process writes it.
        try await database.sql.raw(
            "CREATE UNIQUE INDEX mail_outbox_reminder ON mail_outbox (appointment_id, reminder_for) WHERE reminder_for IS NOT NULL"
        ).run()
        // The practice's reminder lead time (hours before the start; 0 = no reminders).
        try await database.sql.raw(
            "ALTER TABLE practices ADD COLUMN appointment_reminder_hours \(unsafeRaw: t.int) NOT NULL DEFAULT 24").run()
    }

    func revert(on database: any Database) async throws {
        try await database.sql.raw("ALTER TABLE practices DROP COLUMN appointment_reminder_hours").run()
        try await database.sql.raw("DROP TABLE mail_outbox").run()
    }
}
