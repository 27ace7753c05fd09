import AppCore
import Fluent
import SQLKit

/// C4 (one owner record per login) and C5 (owner ↔ practice client associations).
struct M0103_CreatePetOwners: AsyncMigration {
    var name: String { "M0103_CreatePetOwners" }

    func prepare(on database: any Database) async throws {
        let t = SchemaTypes(database.engine)
        try await database.sql.raw("""
            CREATE TABLE pet_owners (
                id \(unsafeRaw: t.uuid) PRIMARY KEY,
                first_name \(unsafeRaw: t.text) NOT NULL,
                last_name \(unsafeRaw: t.text) NOT NULL,
                email \(unsafeRaw: t.text) NOT NULL,
                phone \(unsafeRaw: t.text),
                address \(unsafeRaw: t.text),
                user_id \(unsafeRaw: t.uuid) REFERENCES users (id) ON DELETE RESTRICT,
                created_at \(unsafeRaw: t.timestamp) NOT NULL,
                updated_at \(unsafeRaw: t.timestamp) NOT NULL
            )
            """).run()
        try await database.sql.raw(
            "CREATE UNIQUE INDEX pet_owners_user ON pet_owners (user_id) WHERE user_id IS NOT NULL").run()
        try await database.sql.raw("""
            CREATE TABLE pet_owner_practices (
                pet_owner_id \(unsafeRaw: t.uuid) NOT NULL REFERENCES pet_owners (id) ON DELETE RESTRICT,
                practice_id \(unsafeRaw: t.uuid) NOT NULL REFERENCES practices (id) ON DELETE RESTRICT,
                created_at \(unsafeRaw: t.timestamp) NOT NULL,
                PRIMARY KEY (pet_owner_id, practice_id)
            )
            """).run()
        try await database.sql.raw(
            "CREATE INDEX pet_owner_practices_practice ON pet_owner_practices (practice_id, pet_owner_id)").run()
    }

    func revert(on database: any Database) async throws {
        try await database.sql.raw("DROP TABLE pet_owner_practices").run()
        try await database.sql.raw("DROP TABLE pet_owners").run()
    }
}
