import AppCore
import Fluent
import SQLKit

/// C16: one job row per (visit, storage key); re-queueing updates that row.
struct M0108_CreateTranscriptionJobs: AsyncMigration {
    var name: String { "M0108_CreateTranscriptionJobs" }

    func prepare(on database: any Database) async throws {
        let t = SchemaTypes(database.engine)
        try await database.sql.raw("""
            CREATE TABLE transcription_jobs (
                id \(unsafeRaw: t.uuid) PRIMARY KEY,
                visit_id \(unsafeRaw: t.uuid) NOT NULL REFERENCES visits (id) ON DELETE CASCADE,
                storage_key \(unsafeRaw: t.text) NOT NULL,
                status \(unsafeRaw: t.text) NOT NULL CHECK (status IN ('queued', 'running', 'done', 'failed', 'discarded')),
                attempts \(unsafeRaw: t.int) NOT NULL,
                available_at \(unsafeRaw: t.timestamp) NOT NULL,
                lease_owner \(unsafeRaw: t.text),
                lease_expires_at \(unsafeRaw: t.timestamp),
                last_error \(unsafeRaw: t.text),
                created_at \(unsafeRaw: t.timestamp) NOT NULL,
                updated_at \(unsafeRaw: t.timestamp) NOT NULL,
                CONSTRAINT transcription_jobs_one_per_key UNIQUE (visit_id, storage_key)
            )
            """).run()
        try await database.sql.raw(
            "CREATE INDEX transcription_jobs_claim ON transcription_jobs (status, available_at)").run()
    }

    func revert(on database: any Database) async throws {
        try await database.sql.raw("DROP TABLE transcription_jobs").run()
    }
}
