import AppCore
import Fluent
import SQLKit

/// C9–C13: the recording invariants. One visit per (appointment, pet), only for pets of the appointment,
/// one appointment-less recording per (pet, practice, local day), unique storage keys.
struct M0107_CreateVisits: AsyncMigration {
    var name: String { "M0107_CreateVisits" }

    func prepare(on database: any Database) async throws {
        let t = SchemaTypes(database.engine)
        try await database.sql.raw("""
            CREATE TABLE visits (
                id \(unsafeRaw: t.uuid) PRIMARY KEY,
                pet_id \(unsafeRaw: t.uuid) NOT NULL REFERENCES pets (id) ON DELETE RESTRICT,
                practice_id \(unsafeRaw: t.uuid) NOT NULL REFERENCES practices (id) ON DELETE RESTRICT,
                appointment_id \(unsafeRaw: t.uuid) REFERENCES appointments (id) ON DELETE RESTRICT,
                source \(unsafeRaw: t.text) NOT NULL CHECK (source IN ('recording', 'manual')),
                state \(unsafeRaw: t.text) NOT NULL CHECK (state IN ('new', 'processing', 'processed', 'failed')),
                visit_date \(unsafeRaw: t.timestamp) NOT NULL,
                recording_day \(unsafeRaw: t.text),
                full_text \(unsafeRaw: t.text) NOT NULL,
                summary \(unsafeRaw: t.text),
                audio_transcript_url \(unsafeRaw: t.text),
                storage_key \(unsafeRaw: t.text),
                attempt \(unsafeRaw: t.int),
                upload_method \(unsafeRaw: t.text) CHECK (upload_method IS NULL OR upload_method IN ('presigned_post', 'multipart')),
                upload_url_issued_at \(unsafeRaw: t.timestamp),
                reserved_at \(unsafeRaw: t.timestamp),
                reconcile_after \(unsafeRaw: t.timestamp),
                metadata \(unsafeRaw: t.json) NOT NULL,
                created_by \(unsafeRaw: t.uuid) NOT NULL REFERENCES users (id) ON DELETE RESTRICT,
                created_at \(unsafeRaw: t.timestamp) NOT NULL,
                updated_at \(unsafeRaw: t.timestamp) NOT NULL,
                CONSTRAINT visits_manual_shape CHECK (source <> 'manual' OR (appointment_id IS NULL AND storage_key IS NULL)),
                CONSTRAINT visits_recording_day CHECK (NOT (appointment_id IS NULL AND source = 'recording') OR recording_day IS NOT NULL),
                CONSTRAINT visits_pet_in_appointment FOREIGN KEY (appointment_id, pet_id)
                    REFERENCES appointment_pets (appointment_id, pet_id) ON DELETE RESTRICT
            )
            """).run()
        try await database.sql.raw("""
            CREATE UNIQUE INDEX visits_one_per_appointment_pet ON visits (appointment_id, pet_id)
            WHERE appointment_id IS NOT NULL
            """).run()
        try await database.sql.raw("""
            CREATE UNIQUE INDEX visits_one_per_pet_day ON visits (pet_id, practice_id, recording_day)
            WHERE appointment_id IS NULL AND source = 'recording'
            """).run()
        try await database.sql.raw(
            "CREATE UNIQUE INDEX visits_storage_key ON visits (storage_key) WHERE storage_key IS NOT NULL").run()
        try await database.sql.raw("CREATE INDEX visits_pet_date ON visits (pet_id, visit_date)").run()
        try await database.sql.raw("CREATE INDEX visits_state ON visits (state)").run()
    }

    func revert(on database: any Database) async throws {
        try await database.sql.raw("DROP TABLE visits").run()
    }
}
