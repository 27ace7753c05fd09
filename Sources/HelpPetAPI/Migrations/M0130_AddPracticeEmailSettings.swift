import AppCore
import Fluent
import SQLKit

/// Which emails a practice sends (docs/notifications.md, "Practice settings"): the appointment emails (on, as before
/// this migration) and the discharge instructions when a note is approved (off until the practice turns them on: a
/// medical text by email is the practice's decision). The outbox learns the discharge email's kind.
struct M0130_AddPracticeEmailSettings: AsyncMigration {
    var name: String { "M0130_AddPracticeEmailSettings" }

    static let kinds = """
        kind IN ('appointment_confirmation', 'appointment_rescheduled', 'appointment_cancelled', 'appointment_reminder',
            'practice_invitation', 'discharge_instructions')
        """

    func prepare(on database: any Database) async throws {
        let t = SchemaTypes(database.engine)
        try await database.sql.raw("""
            ALTER TABLE practices ADD COLUMN appointment_emails_enabled \(unsafeRaw: t.bool) NOT NULL DEFAULT \(unsafeRaw: t.true)
            """).run()
        try await database.sql.raw("""
            ALTER TABLE practices ADD COLUMN discharge_emails_enabled \(unsafeRaw: t.bool) NOT NULL DEFAULT \(unsafeRaw: t.false)
            """).run()
        try await CheckConstraintWidening(
            table: "mail_outbox", postgresConstraint: "mail_outbox_kind_check", postgresCheck: Self.kinds,
            sqliteFragment: "'appointment_reminder', 'practice_invitation'))",
            sqliteReplacement: "'appointment_reminder', 'practice_invitation', 'discharge_instructions'))"
        ).apply(on: database)
    }

    func revert(on database: any Database) async throws {
        try await database.sql.raw("ALTER TABLE practices DROP COLUMN discharge_emails_enabled").run()
        try await database.sql.raw("ALTER TABLE practices DROP COLUMN appointment_emails_enabled").run()
    }
}
