import AppCore
import Fluent
import SQLKit

/// Push delivery (docs/notifications.md, Push): `notification_outbox` gains the same delivery state as `mail_outbox`
/// (status, attempts, due time, lease, last error) and a second kind, `note_ready`; `push_deliveries` records each
/// device a notification reached with APNs' `apns-id`, so a retry after a partial failure skips those devices.
/// SQLite cannot change a CHECK constraint in place, so the table is rebuilt (on both engines, one code path).
/// Rows written before this migration were never meant to be sent late: they are closed as `skipped`.
struct M0129_AddPushDelivery: AsyncMigration {
    var name: String { "M0129_AddPushDelivery" }

    func prepare(on database: any Database) async throws {
        let t = SchemaTypes(database.engine)
        try await database.sql.raw("""
            CREATE TABLE notification_outbox_m0129 (
                id \(unsafeRaw: t.uuid) PRIMARY KEY,
                user_id \(unsafeRaw: t.uuid) NOT NULL REFERENCES users (id) ON DELETE RESTRICT,
                kind \(unsafeRaw: t.text) NOT NULL CHECK (kind IN ('appointment_booked', 'note_ready')),
                payload \(unsafeRaw: t.json) NOT NULL,
                created_at \(unsafeRaw: t.timestamp) NOT NULL,
                sent_at \(unsafeRaw: t.timestamp),
                status \(unsafeRaw: t.text) NOT NULL DEFAULT 'queued'
                    CHECK (status IN ('queued', 'sending', 'sent', 'failed', 'skipped')),
                attempts \(unsafeRaw: t.int) NOT NULL DEFAULT 0,
                available_at \(unsafeRaw: t.timestamp),
                lease_owner \(unsafeRaw: t.text),
                lease_expires_at \(unsafeRaw: t.timestamp),
                last_error \(unsafeRaw: t.text),
                updated_at \(unsafeRaw: t.timestamp)
            )
            """).run()
        try await database.sql.raw("""
            INSERT INTO notification_outbox_m0129 (id, user_id, kind, payload, created_at, sent_at, status, attempts,
                last_error, updated_at)
            SELECT id, user_id, kind, payload, created_at, sent_at, 'skipped', 0,
                'written before push delivery existed', created_at
            FROM notification_outbox
            """).run()
        try await database.sql.raw("DROP TABLE notification_outbox").run()
        try await database.sql.raw("ALTER TABLE notification_outbox_m0129 RENAME TO notification_outbox").run()
        try await database.sql.raw("""
            CREATE INDEX notification_outbox_due ON notification_outbox (created_at) WHERE status IN ('queued', 'sending')
            """).run()
        try await database.sql.raw("""
            CREATE TABLE push_deliveries (
                id \(unsafeRaw: t.uuid) PRIMARY KEY,
                notification_id \(unsafeRaw: t.uuid) NOT NULL REFERENCES notification_outbox (id) ON DELETE CASCADE,
                device_token_id \(unsafeRaw: t.uuid) NOT NULL,
                apns_id \(unsafeRaw: t.text),
                sent_at \(unsafeRaw: t.timestamp) NOT NULL
            )
            """).run()
        try await database.sql.raw(
            "CREATE UNIQUE INDEX push_deliveries_once ON push_deliveries (notification_id, device_token_id)").run()
    }

    /// Back to M0114's shape (a rebuild again); `note_ready` rows have no place there and go.
    func revert(on database: any Database) async throws {
        let t = SchemaTypes(database.engine)
        try await database.sql.raw("DROP TABLE push_deliveries").run()
        try await database.sql.raw("""
            CREATE TABLE notification_outbox_m0114 (
                id \(unsafeRaw: t.uuid) PRIMARY KEY,
                user_id \(unsafeRaw: t.uuid) NOT NULL REFERENCES users (id) ON DELETE RESTRICT,
                kind \(unsafeRaw: t.text) NOT NULL CHECK (kind IN ('appointment_booked')),
                payload \(unsafeRaw: t.json) NOT NULL,
                created_at \(unsafeRaw: t.timestamp) NOT NULL,
                sent_at \(unsafeRaw: t.timestamp)
            )
            """).run()
        try await database.sql.raw("""
            INSERT INTO notification_outbox_m0114 (id, user_id, kind, payload, created_at, sent_at)
            SELECT id, user_id, kind, payload, created_at, sent_at FROM notification_outbox WHERE kind = 'appointment_booked'
            """).run()
        try await database.sql.raw("DROP TABLE notification_outbox").run()
        try await database.sql.raw("ALTER TABLE notification_outbox_m0114 RENAME TO notification_outbox").run()
        try await database.sql.raw(
            "CREATE INDEX notification_outbox_unsent ON notification_outbox (created_at) WHERE sent_at IS NULL").run()
    }
}
