import AppCore
import Fluent
import SQLKit

/// C14 (version numbering of a lineage) and C15 (exactly one current version per lineage).
struct M0106_CreateMedicalRecords: AsyncMigration {
    var name: String { "M0106_CreateMedicalRecords" }

    func prepare(on database: any Database) async throws {
        let t = SchemaTypes(database.engine)
        let list = database.engine == .postgres ? "TEXT[]" : "TEXT"
        try await database.sql.raw("""
            CREATE TABLE medical_records (
                id \(unsafeRaw: t.uuid) PRIMARY KEY,
                original_id \(unsafeRaw: t.uuid) NOT NULL REFERENCES medical_records (id) ON DELETE RESTRICT,
                version \(unsafeRaw: t.int) NOT NULL CHECK (version >= 1),
                is_current \(unsafeRaw: t.bool) NOT NULL,
                pet_id \(unsafeRaw: t.uuid) NOT NULL REFERENCES pets (id) ON DELETE RESTRICT,
                practice_id \(unsafeRaw: t.uuid) NOT NULL REFERENCES practices (id) ON DELETE RESTRICT,
                record_type \(unsafeRaw: t.text) NOT NULL CHECK (record_type IN ('checkup', 'vaccination', 'surgery',
                    'emergency', 'dental', 'diagnostic', 'treatment', 'follow_up', 'lab_result', 'visit_summary', 'other')),
                title \(unsafeRaw: t.text) NOT NULL,
                description \(unsafeRaw: t.text),
                diagnosis \(unsafeRaw: t.text),
                treatment_plan \(unsafeRaw: t.text),
                medications \(unsafeRaw: list) NOT NULL,
                notes \(unsafeRaw: t.text),
                follow_up_date \(unsafeRaw: t.text),
                created_by \(unsafeRaw: t.uuid) NOT NULL REFERENCES users (id) ON DELETE RESTRICT,
                created_at \(unsafeRaw: t.timestamp) NOT NULL,
                updated_at \(unsafeRaw: t.timestamp) NOT NULL,
                CONSTRAINT medical_records_lineage_version UNIQUE (original_id, version),
                CONSTRAINT medical_records_first_version CHECK ((version = 1) = (original_id = id))
            )
            """).run()
        try await database.sql.raw(
            "CREATE UNIQUE INDEX medical_records_one_current ON medical_records (original_id) WHERE is_current").run()
        try await database.sql.raw(
            "CREATE INDEX medical_records_pet ON medical_records (pet_id, created_at)").run()
    }

    func revert(on database: any Database) async throws {
        try await database.sql.raw("DROP TABLE medical_records").run()
    }
}
