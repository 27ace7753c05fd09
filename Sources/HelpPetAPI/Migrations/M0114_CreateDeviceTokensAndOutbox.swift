import AppCore
import Fluent
import SQLKit

/// APNs device tokens per user (one row per token: a token belongs to the last user who registered it) and the
/// notification outbox a push sender would drain (no sender exists here: there is no APNs).
struct M0114_CreateDeviceTokensAndOutbox: AsyncMigration {
    var name: String { "M0114_CreateDeviceTokensAndOutbox" }

    func prepare(on database: any Database) async throws {
        let t = SchemaTypes(database.engine)
        try await database.sql.raw("""
            CREATE TABLE device_tokens (
                id \(unsafeRaw: t.uuid) PRIMARY KEY,
                user_id \(unsafeRaw: t.uuid) NOT NULL REFERENCES users (id) ON DELETE RESTRICT,
                device_token \(unsafeRaw: t.text) NOT NULL,
                device_type \(unsafeRaw: t.text) NOT NULL CHECK (device_type IN ('ios')),
                is_active \(unsafeRaw: t.bool) NOT NULL,
                created_at \(unsafeRaw: t.timestamp) NOT NULL,
                updated_at \(unsafeRaw: t.timestamp) NOT NULL
            )
            """).run()
        try await database.sql.raw("CREATE UNIQUE INDEX device_tokens_token ON device_tokens (device_token)").run()
        try await database.sql.raw("CREATE INDEX device_tokens_user ON device_tokens (user_id)").run()
        try await database.sql.raw("""
            CREATE TABLE notification_outbox (
                id \(unsafeRaw: t.uuid) PRIMARY KEY,
                user_id \(unsafeRaw: t.uuid) NOT NULL REFERENCES users (id) ON DELETE RESTRICT,
                kind \(unsafeRaw: t.text) NOT NULL CHECK (kind IN ('appointment_booked')),
                payload \(unsafeRaw: t.json) NOT NULL,
                created_at \(unsafeRaw: t.timestamp) NOT NULL,
                sent_at \(unsafeRaw: t.timestamp)
            )
            """).run()
        try await database.sql.raw(
            "CREATE INDEX notification_outbox_unsent ON notification_outbox (created_at) WHERE sent_at IS NULL").run()
    }

    func revert(on database: any Database) async throws {
        try await database.sql.raw("DROP TABLE notification_outbox").run()
        try await database.sql.raw("DROP TABLE device_tokens").run()
    }
}
