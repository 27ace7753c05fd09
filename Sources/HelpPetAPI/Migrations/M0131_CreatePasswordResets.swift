import AppCore
import Fluent
import SQLKit

/// Password reset by email (docs/login-and-sessions.md, "Forgotten password"). Only the SHA-256 of a link's token is
/// stored: the token itself lives in the email alone, so a read of this table resets nobody's password. The outbox
/// learns the two emails' kinds. (M0128 was never used: the number was held for this table while M0129 and M0130
/// landed first, and migrations run in the order they are listed, so the table takes the next free number.)
struct M0131_CreatePasswordResets: AsyncMigration {
    var name: String { "M0131_CreatePasswordResets" }

    static let kinds = """
        kind IN ('appointment_confirmation', 'appointment_rescheduled', 'appointment_cancelled', 'appointment_reminder',
            'practice_invitation', 'discharge_instructions', 'password_reset', 'password_changed')
        """

    func prepare(on database: any Database) async throws {
        let t = SchemaTypes(database.engine)
        try await database.sql.raw("""
            CREATE TABLE password_resets (
                id \(unsafeRaw: t.uuid) PRIMARY KEY,
                user_id \(unsafeRaw: t.uuid) NOT NULL REFERENCES users (id) ON DELETE CASCADE,
                token_hash \(unsafeRaw: t.text) NOT NULL UNIQUE,
                created_at \(unsafeRaw: t.timestamp) NOT NULL,
                expires_at \(unsafeRaw: t.timestamp) NOT NULL,
                used_at \(unsafeRaw: t.timestamp)
            )
            """).run()
        try await database.sql.raw("CREATE INDEX password_resets_user ON password_resets (user_id, created_at)").run()
        try await CheckConstraintWidening(
            table: "mail_outbox", postgresConstraint: "mail_outbox_kind_check", postgresCheck: Self.kinds,
            sqliteFragment: "'practice_invitation', 'discharge_instructions'))",
            sqliteReplacement: "'practice_invitation', 'discharge_instructions', 'password_reset', 'password_changed'))"
        ).apply(on: database)
    }

    func revert(on database: any Database) async throws {
        try await database.sql.raw("DROP TABLE password_resets").run()
    }
}
