import AppCore
import Fluent
import SQLKit

/// Every storage key the server has issued for a recording (docs/recording-safety.md): one row per key, so an
/// object that lands under any of them is found by complete and the reconciler, and the embedded store accepts
/// uploads only to keys of a live intent. A deleted visit's intents stay behind with `visit_id` NULL (dead):
/// their keys are what the reconciler removes from storage once their URLs can no longer be used.
struct M0111_CreateUploadIntents: AsyncMigration {
    var name: String { "M0111_CreateUploadIntents" }

    func prepare(on database: any Database) async throws {
        let t = SchemaTypes(database.engine)
        try await database.sql.raw("""
            CREATE TABLE upload_intents (
                id \(unsafeRaw: t.uuid) PRIMARY KEY,
                visit_id \(unsafeRaw: t.uuid) REFERENCES visits (id) ON DELETE SET NULL,
                storage_key \(unsafeRaw: t.text) NOT NULL,
                attempt \(unsafeRaw: t.int) NOT NULL,
                content_type \(unsafeRaw: t.text) NOT NULL,
                filename \(unsafeRaw: t.text) NOT NULL,
                upload_method \(unsafeRaw: t.text) NOT NULL CHECK (upload_method IN ('presigned_post', 'multipart')),
                status \(unsafeRaw: t.text) NOT NULL CHECK (status IN ('open', 'superseded', 'landed', 'closed')),
                issued_at \(unsafeRaw: t.timestamp) NOT NULL,
                expires_at \(unsafeRaw: t.timestamp) NOT NULL,
                created_at \(unsafeRaw: t.timestamp) NOT NULL,
                updated_at \(unsafeRaw: t.timestamp) NOT NULL,
                CONSTRAINT upload_intents_one_per_key UNIQUE (storage_key)
            )
            """).run()
        try await database.sql.raw("CREATE INDEX upload_intents_visit ON upload_intents (visit_id, status)").run()
        try await database.sql.raw("CREATE INDEX upload_intents_expiry ON upload_intents (status, expires_at)").run()
        try await backfill(on: database)
    }

    /// Each recording visit gets an intent for its current key: `open` while it is `new` (its object may still
    /// land), `landed` once completed. Expiry is the last URL issue (or legacy reservation) plus its lifetime;
    /// rows with neither use their creation time, which lets an old pending row close on the first check.
    func backfill(on database: any Database) async throws {
        let issued = "COALESCE(upload_url_issued_at, reserved_at, created_at)"
        let (uuid, contentType, filename, plusHour, plusQuarter): (String, String, String, String, String)
        switch database.engine {
        case .postgres:
            uuid = "gen_random_uuid()"
            contentType = "COALESCE(metadata ->> 'content_type', 'audio/m4a')"
            filename = "COALESCE(metadata ->> 'filename', '')"
            plusHour = "\(issued) + INTERVAL '3600 seconds'"
            plusQuarter = "\(issued) + INTERVAL '900 seconds'"
        case .sqlite:
            // Version-4-shaped random ids in the text form Fluent writes (upper case); timestamps are REAL seconds.
            uuid = """
                upper(hex(randomblob(4)) || '-' || hex(randomblob(2)) || '-4' || substr(hex(randomblob(2)), 2) || '-'
                    || substr('89AB', 1 + (abs(random()) % 4), 1) || substr(hex(randomblob(2)), 2) || '-'
                    || hex(randomblob(6)))
                """
            contentType = "COALESCE(json_extract(metadata, '$.content_type'), 'audio/m4a')"
            filename = "COALESCE(json_extract(metadata, '$.filename'), '')"
            plusHour = "\(issued) + 3600"
            plusQuarter = "\(issued) + 900"
        }
        try await database.sql.raw("""
            INSERT INTO upload_intents (id, visit_id, storage_key, attempt, content_type, filename, upload_method,
                status, issued_at, expires_at, created_at, updated_at)
            SELECT \(unsafeRaw: uuid), id, storage_key, COALESCE(attempt, 1), \(unsafeRaw: contentType),
                \(unsafeRaw: filename), COALESCE(upload_method, 'presigned_post'),
                CASE WHEN state = 'new' THEN 'open' ELSE 'landed' END, \(unsafeRaw: issued),
                CASE WHEN upload_method = 'multipart' THEN \(unsafeRaw: plusQuarter) ELSE \(unsafeRaw: plusHour) END,
                created_at, updated_at
            FROM visits WHERE source = 'recording' AND storage_key IS NOT NULL
            """).run()
    }

    func revert(on database: any Database) async throws {
        try await database.sql.raw("DROP TABLE upload_intents").run()
    }
}
