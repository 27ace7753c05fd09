import AppCore
import Fluent
import SQLKit

/// C6: microchip numbers are unique across all practices, case-insensitively.
struct M0104_CreatePets: AsyncMigration {
    var name: String { "M0104_CreatePets" }

    func prepare(on database: any Database) async throws {
        let t = SchemaTypes(database.engine)
        try await database.sql.raw("""
            CREATE TABLE pets (
                id \(unsafeRaw: t.uuid) PRIMARY KEY,
                owner_id \(unsafeRaw: t.uuid) NOT NULL REFERENCES pet_owners (id) ON DELETE RESTRICT,
                name \(unsafeRaw: t.text) NOT NULL,
                species \(unsafeRaw: t.text) NOT NULL,
                breed \(unsafeRaw: t.text),
                color \(unsafeRaw: t.text),
                gender \(unsafeRaw: t.text),
                date_of_birth \(unsafeRaw: t.text),
                weight \(unsafeRaw: t.double),
                microchip_number \(unsafeRaw: t.text),
                allergies \(unsafeRaw: t.text),
                is_active \(unsafeRaw: t.bool) NOT NULL,
                registration_date \(unsafeRaw: t.text) NOT NULL,
                created_at \(unsafeRaw: t.timestamp) NOT NULL,
                updated_at \(unsafeRaw: t.timestamp) NOT NULL
            )
            """).run()
        try await database.sql.raw("""
            CREATE UNIQUE INDEX pets_microchip_upper ON pets (upper(microchip_number))
            WHERE microchip_number IS NOT NULL
            """).run()
        try await database.sql.raw("CREATE INDEX pets_owner ON pets (owner_id, name, id)").run()
    }

    func revert(on database: any Database) async throws {
        try await database.sql.raw("DROP TABLE pets").run()
    }
}
