import AppCore
import Fluent
import SQLKit

/// C7 (status, type and duration values) and C8 (one row per pet, unique positions).
struct M0105_CreateAppointments: AsyncMigration {
    var name: String { "M0105_CreateAppointments" }

    func prepare(on database: any Database) async throws {
        let t = SchemaTypes(database.engine)
        try await database.sql.raw("""
            CREATE TABLE appointments (
                id \(unsafeRaw: t.uuid) PRIMARY KEY,
                practice_id \(unsafeRaw: t.uuid) NOT NULL REFERENCES practices (id) ON DELETE RESTRICT,
                pet_owner_id \(unsafeRaw: t.uuid) NOT NULL REFERENCES pet_owners (id) ON DELETE RESTRICT,
                assigned_vet_user_id \(unsafeRaw: t.uuid) REFERENCES users (id) ON DELETE RESTRICT,
                created_by_user_id \(unsafeRaw: t.uuid) NOT NULL REFERENCES users (id) ON DELETE RESTRICT,
                appointment_date \(unsafeRaw: t.timestamp) NOT NULL,
                duration_minutes \(unsafeRaw: t.int) NOT NULL CHECK (duration_minutes BETWEEN 5 AND 480),
                appointment_type \(unsafeRaw: t.text) NOT NULL
                    CHECK (appointment_type IN ('checkup', 'vaccination', 'surgery', 'emergency', 'follow_up', 'consultation')),
                status \(unsafeRaw: t.text) NOT NULL
                    CHECK (status IN ('scheduled', 'confirmed', 'in_progress', 'completed', 'cancelled')),
                title \(unsafeRaw: t.text) NOT NULL,
                description \(unsafeRaw: t.text),
                notes \(unsafeRaw: t.text),
                created_at \(unsafeRaw: t.timestamp) NOT NULL,
                updated_at \(unsafeRaw: t.timestamp) NOT NULL
            )
            """).run()
        try await database.sql.raw("CREATE INDEX appointments_practice_date ON appointments (practice_id, appointment_date)").run()
        try await database.sql.raw("CREATE INDEX appointments_vet_date ON appointments (assigned_vet_user_id, appointment_date)").run()
        try await database.sql.raw("CREATE INDEX appointments_owner_date ON appointments (pet_owner_id, appointment_date)").run()
        try await database.sql.raw("""
            CREATE TABLE appointment_pets (
                appointment_id \(unsafeRaw: t.uuid) NOT NULL REFERENCES appointments (id) ON DELETE RESTRICT,
                pet_id \(unsafeRaw: t.uuid) NOT NULL REFERENCES pets (id) ON DELETE RESTRICT,
                position \(unsafeRaw: t.int) NOT NULL,
                PRIMARY KEY (appointment_id, pet_id),
                CONSTRAINT appointment_pets_position UNIQUE (appointment_id, position)
            )
            """).run()
        try await database.sql.raw("CREATE INDEX appointment_pets_pet ON appointment_pets (pet_id)").run()
    }

    func revert(on database: any Database) async throws {
        try await database.sql.raw("DROP TABLE appointment_pets").run()
        try await database.sql.raw("DROP TABLE appointments").run()
    }
}
