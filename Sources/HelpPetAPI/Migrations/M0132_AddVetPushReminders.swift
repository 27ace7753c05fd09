import AppCore
import Fluent
import SQLKit

/// The vet's appointment reminder by push (docs/notifications.md, Push, "Events"): `notification_outbox` learns the
/// kind and, like `mail_outbox`, which appointment and start time a reminder is for. The unique index makes a second
/// reminder of the same start a no-op, whichever worker scans, before or after a restart. Every push about an
/// appointment now keeps its id there, so the console's delivery log lists pushes beside emails (rows written before
/// this migration have none and do not appear).
struct M0132_AddVetPushReminders: AsyncMigration {
    var name: String { "M0132_AddVetPushReminders" }

    func prepare(on database: any Database) async throws {
        let t = SchemaTypes(database.engine)
        try await database.sql.raw("ALTER TABLE notification_outbox ADD COLUMN appointment_id \(unsafeRaw: t.uuid)").run()
        try await database.sql.raw("ALTER TABLE notification_outbox ADD COLUMN reminder_for \(unsafeRaw: t.timestamp)").run()
        try await database.sql.raw("""
            CREATE UNIQUE INDEX notification_outbox_reminder_once ON notification_outbox (appointment_id, reminder_for)
            WHERE reminder_for IS NOT NULL
            """).run()
        // The table was created as notification_outbox_m0129 and renamed; PostgreSQL keeps the constraint's name.
        try await CheckConstraintWidening(
            table: "notification_outbox", postgresConstraint: "notification_outbox_m0129_kind_check",
            postgresCheck: "kind IN ('appointment_booked', 'note_ready', 'appointment_reminder')",
            sqliteFragment: "'appointment_booked', 'note_ready'))",
            sqliteReplacement: "'appointment_booked', 'note_ready', 'appointment_reminder'))"
        ).apply(on: database)
    }

    func revert(on database: any Database) async throws {
        try await database.sql.raw("DROP INDEX notification_outbox_reminder_once").run()
        try await database.sql.raw("ALTER TABLE notification_outbox DROP COLUMN reminder_for").run()
        try await database.sql.raw("ALTER TABLE notification_outbox DROP COLUMN appointment_id").run()
    }
}
