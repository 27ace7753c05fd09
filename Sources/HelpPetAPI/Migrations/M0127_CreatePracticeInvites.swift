import AppCore
import Fluent
import SQLKit

/// Practice invitations (docs/invitations.md). Only the SHA-256 of the code is stored: the code itself lives in the
/// email alone, so a read of this table does not let anyone join. At most one open invitation (neither accepted nor
/// revoked) per practice and address, whichever node inserts. The outbox learns the invitation email's kind.
struct M0127_CreatePracticeInvites: AsyncMigration {
    var name: String { "M0127_CreatePracticeInvites" }

    static let kinds = """
        kind IN ('appointment_confirmation', 'appointment_rescheduled', 'appointment_cancelled', 'appointment_reminder',
            'practice_invitation')
        """

    func prepare(on database: any Database) async throws {
        let t = SchemaTypes(database.engine)
        try await database.sql.raw("""
            CREATE TABLE practice_invites (
                id \(unsafeRaw: t.uuid) PRIMARY KEY,
                practice_id \(unsafeRaw: t.uuid) NOT NULL REFERENCES practices (id) ON DELETE CASCADE,
                email \(unsafeRaw: t.text) NOT NULL,
                code_hash \(unsafeRaw: t.text) NOT NULL,
                invited_by \(unsafeRaw: t.uuid) REFERENCES users (id) ON DELETE SET NULL,
                expires_at \(unsafeRaw: t.timestamp) NOT NULL,
                created_at \(unsafeRaw: t.timestamp) NOT NULL,
                accepted_at \(unsafeRaw: t.timestamp),
                accepted_by \(unsafeRaw: t.uuid) REFERENCES users (id) ON DELETE SET NULL,
                revoked_at \(unsafeRaw: t.timestamp)
            )
            """).run()
        try await database.sql.raw("""
            CREATE UNIQUE INDEX practice_invites_open ON practice_invites (practice_id, email)
            WHERE accepted_at IS NULL AND revoked_at IS NULL
            """).run()
        try await database.sql.raw("CREATE INDEX practice_invites_practice ON practice_invites (practice_id, created_at)").run()
        try await CheckConstraintWidening(
            table: "mail_outbox", postgresConstraint: "mail_outbox_kind_check", postgresCheck: Self.kinds,
            sqliteFragment: "'appointment_reminder'))", sqliteReplacement: "'appointment_reminder', 'practice_invitation'))"
        ).apply(on: database)
    }

    func revert(on database: any Database) async throws {
        try await database.sql.raw("DROP TABLE practice_invites").run()
    }
}
