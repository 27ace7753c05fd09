import AppCore
import Fluent
import SQLKit

/// Idempotency records of appointment creation (contract §3.8): unique per (credential, key).
struct M0209_CreateIdempotencyRecords: AsyncMigration {
    var name: String { "M0209_AutoDetailCreateIdempotencyRecords" }

    func prepare(on database: any Database) async throws {
        let t = SchemaTypes(database.engine)
        try await database.sql.raw("""
            CREATE TABLE ad_idempotency_records (
                credential_id \(unsafeRaw: t.uuid) NOT NULL,
                idempotency_key \(unsafeRaw: t.text) NOT NULL,
                request_hash \(unsafeRaw: t.text) NOT NULL,
                appointment_id \(unsafeRaw: t.uuid) NOT NULL REFERENCES ad_appointments (id) ON DELETE RESTRICT,
                created_at \(unsafeRaw: t.timestamp) NOT NULL,
                PRIMARY KEY (credential_id, idempotency_key)
            )
            """).run()
    }

    func revert(on database: any Database) async throws {
        try await database.sql.raw("DROP TABLE ad_idempotency_records").run()
    }
}
