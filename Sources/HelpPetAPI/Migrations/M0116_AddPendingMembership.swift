import AppCore
import Fluent
import SQLKit

/// Onboarding: a self-registered user is stored with role `PENDING` (no practice, so `users_role_practice`
/// keeps holding) until an ADMIN admits them; the practice they asked to join and the member role they signed up for
/// wait in two columns. The role CHECK is widened with `PENDING` (SQLite rebuilds the table, CheckConstraintWidening).
struct M0116_AddPendingMembership: AsyncMigration {
    var name: String { "M0116_AddPendingMembership" }

    static let roles = "role IN ('VET_STAFF', 'VET', 'ADMIN', 'PET_OWNER', 'PENDING')"

    func prepare(on database: any Database) async throws {
        let t = SchemaTypes(database.engine)
        // A deleted practice withdraws the requests to join it; the user stays pending.
        try await database.sql.raw("""
            ALTER TABLE users ADD COLUMN requested_practice_id \(unsafeRaw: t.uuid)
                REFERENCES practices (id) ON DELETE SET NULL
            """).run()
        try await database.sql.raw("""
            ALTER TABLE users ADD COLUMN requested_role \(unsafeRaw: t.text)
                CHECK (requested_role IS NULL OR requested_role IN ('VET', 'VET_STAFF'))
            """).run()
        try await CheckConstraintWidening(
            table: "users", postgresConstraint: "users_role_check", postgresCheck: Self.roles,
            sqliteFragment: "'ADMIN', 'PET_OWNER'))", sqliteReplacement: "'ADMIN', 'PET_OWNER', 'PENDING'))"
        ).apply(on: database)
    }

    func revert(on database: any Database) async throws {}
}
