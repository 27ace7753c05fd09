import AppCore
import Fluent
import SQLKit

/// C1–C3: case-insensitive unique usernames and emails; role values; practice exactly for members.
struct M0102_CreateUsers: AsyncMigration {
    var name: String { "M0102_CreateUsers" }

    func prepare(on database: any Database) async throws {
        let t = SchemaTypes(database.engine)
        try await database.sql.raw("""
            CREATE TABLE users (
                id \(unsafeRaw: t.uuid) PRIMARY KEY,
                username \(unsafeRaw: t.text) NOT NULL,
                email \(unsafeRaw: t.text) NOT NULL,
                full_name \(unsafeRaw: t.text) NOT NULL,
                role \(unsafeRaw: t.text) NOT NULL CHECK (role IN ('VET_STAFF', 'VET', 'ADMIN', 'PET_OWNER')),
                practice_id \(unsafeRaw: t.uuid) REFERENCES practices (id) ON DELETE RESTRICT,
                password_hash \(unsafeRaw: t.text) NOT NULL,
                is_active \(unsafeRaw: t.bool) NOT NULL,
                credentials_changed_at \(unsafeRaw: t.timestamp) NOT NULL,
                created_at \(unsafeRaw: t.timestamp) NOT NULL,
                updated_at \(unsafeRaw: t.timestamp) NOT NULL,
                CONSTRAINT users_role_practice CHECK ((role IN ('VET', 'VET_STAFF')) = (practice_id IS NOT NULL))
            )
            """).run()
        try await database.sql.raw("CREATE UNIQUE INDEX users_username_lower ON users (lower(username))").run()
        try await database.sql.raw("CREATE UNIQUE INDEX users_email_lower ON users (lower(email))").run()
        try await database.sql.raw("CREATE INDEX users_practice ON users (practice_id)").run()
    }

    func revert(on database: any Database) async throws {
        try await database.sql.raw("DROP TABLE users").run()
    }
}
