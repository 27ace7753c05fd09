import AppCore
import Fluent
import SQLKit

/// The studio admin's forgotten password (docs/login-and-sessions.md, "Studio"): the studio settings learn the
/// admin's email address, reset links are kept as the SHA-256 of their token only, and the studio gets an email
/// outbox of its own with the columns of HelpPet's `mail_outbox` (the shared `MailOutbox` store and delivery loop
/// serve both; the appointment columns are there for the studio's booking emails to come).
struct M0213_AddAdminPasswordReset: AsyncMigration {
    var name: String { "M0213_AddAdminPasswordReset" }

    func prepare(on database: any Database) async throws {
        let t = SchemaTypes(database.engine)
        try await database.sql.raw("ALTER TABLE ad_studio_settings ADD COLUMN admin_email \(unsafeRaw: t.text)").run()
        try await database.sql.raw("""
            CREATE TABLE ad_admin_password_resets (
                id \(unsafeRaw: t.uuid) PRIMARY KEY,
                admin_user_id \(unsafeRaw: t.uuid) NOT NULL REFERENCES ad_admin_users (id) ON DELETE CASCADE,
                token_hash \(unsafeRaw: t.text) NOT NULL UNIQUE,
                created_at \(unsafeRaw: t.timestamp) NOT NULL,
                expires_at \(unsafeRaw: t.timestamp) NOT NULL,
                used_at \(unsafeRaw: t.timestamp)
            )
            """).run()
        try await database.sql.raw("""
            CREATE TABLE ad_mail_outbox (
                id \(unsafeRaw: t.uuid) PRIMARY KEY,
                message_id \(unsafeRaw: t.text) NOT NULL,
                kind \(unsafeRaw: t.text) NOT NULL CHECK (kind IN ('password_reset', 'password_changed')),
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
        try await database.sql.raw("CREATE UNIQUE INDEX ad_mail_outbox_message_id ON ad_mail_outbox (message_id)").run()
        try await database.sql.raw(
            "CREATE INDEX ad_mail_outbox_due ON ad_mail_outbox (available_at) WHERE status IN ('queued', 'sending')").run()
    }

    func revert(on database: any Database) async throws {
        try await database.sql.raw("DROP TABLE ad_mail_outbox").run()
        try await database.sql.raw("DROP TABLE ad_admin_password_resets").run()
        try await database.sql.raw("ALTER TABLE ad_studio_settings DROP COLUMN admin_email").run()
    }
}
