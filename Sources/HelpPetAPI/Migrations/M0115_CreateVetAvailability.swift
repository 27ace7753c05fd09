import AppCore
import Fluent
import SQLKit

/// A vet's availability windows (the iPhone app's work-schedule screen): UTC instants, half-open `[start_at, end_at)`,
/// scoped to the vet's practice. Overlaps of one vet's active windows are refused by the controller under a lock of
/// the vet's user row (PostgreSQL) or the single SQLite writer; the CHECKs keep every row well-formed.
struct M0115_CreateVetAvailability: AsyncMigration {
    var name: String { "M0115_CreateVetAvailability" }

    func prepare(on database: any Database) async throws {
        let t = SchemaTypes(database.engine)
        try await database.sql.raw("""
            CREATE TABLE vet_availability (
                id \(unsafeRaw: t.uuid) PRIMARY KEY,
                vet_user_id \(unsafeRaw: t.uuid) NOT NULL REFERENCES users (id) ON DELETE RESTRICT,
                practice_id \(unsafeRaw: t.uuid) NOT NULL REFERENCES practices (id) ON DELETE RESTRICT,
                start_at \(unsafeRaw: t.timestamp) NOT NULL,
                end_at \(unsafeRaw: t.timestamp) NOT NULL,
                availability_type \(unsafeRaw: t.text) NOT NULL
                    CHECK (availability_type IN ('AVAILABLE', 'SURGERY_BLOCK', 'UNAVAILABLE', 'EMERGENCY_ONLY')),
                notes \(unsafeRaw: t.text),
                is_active \(unsafeRaw: t.bool) NOT NULL,
                created_at \(unsafeRaw: t.timestamp) NOT NULL,
                updated_at \(unsafeRaw: t.timestamp) NOT NULL,
                CONSTRAINT vet_availability_positive CHECK (end_at > start_at)
            )
            """).run()
        try await database.sql.raw(
            "CREATE INDEX vet_availability_vet_start ON vet_availability (vet_user_id, start_at)").run()
    }

    func revert(on database: any Database) async throws {
        try await database.sql.raw("DROP TABLE vet_availability").run()
    }
}
