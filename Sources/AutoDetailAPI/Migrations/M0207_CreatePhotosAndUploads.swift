import AppCore
import Fluent
import SQLKit

/// Uploads (one per presign call) and linked photos (contract §3.4, §3.9): unique object keys, enums, restricted
/// appointment references, unique positions per (appointment, kind).
struct M0207_CreatePhotosAndUploads: AsyncMigration {
    var name: String { "M0207_AutoDetailCreatePhotosAndUploads" }

    func prepare(on database: any Database) async throws {
        let t = SchemaTypes(database.engine)
        try await database.sql.raw("""
            CREATE TABLE ad_uploads (
                id \(unsafeRaw: t.uuid) PRIMARY KEY,
                appointment_id \(unsafeRaw: t.uuid) NOT NULL REFERENCES ad_appointments (id) ON DELETE RESTRICT,
                kind \(unsafeRaw: t.text) NOT NULL CHECK (kind IN ('work', 'defect')),
                object_key \(unsafeRaw: t.text) NOT NULL UNIQUE,
                content_type \(unsafeRaw: t.text) NOT NULL
                    CHECK (content_type IN ('image/jpeg', 'image/png', 'image/heic')),
                filename \(unsafeRaw: t.text) NOT NULL,
                size_bytes \(unsafeRaw: t.bigint) CHECK (size_bytes BETWEEN 1 AND 15728640),
                created_at \(unsafeRaw: t.timestamp) NOT NULL,
                url_expires_at \(unsafeRaw: t.timestamp) NOT NULL,
                photo_id \(unsafeRaw: t.uuid)
            )
            """).run()
        try await database.sql.raw("CREATE INDEX ad_uploads_created ON ad_uploads (created_at)").run()
        try await database.sql.raw("""
            CREATE TABLE ad_photos (
                id \(unsafeRaw: t.uuid) PRIMARY KEY,
                appointment_id \(unsafeRaw: t.uuid) NOT NULL REFERENCES ad_appointments (id) ON DELETE RESTRICT,
                kind \(unsafeRaw: t.text) NOT NULL CHECK (kind IN ('work', 'defect')),
                object_key \(unsafeRaw: t.text) NOT NULL UNIQUE,
                content_type \(unsafeRaw: t.text) NOT NULL,
                etag \(unsafeRaw: t.text) NOT NULL,
                size_bytes \(unsafeRaw: t.bigint) NOT NULL CHECK (size_bytes >= 0),
                upload_url_expires_at \(unsafeRaw: t.timestamp) NOT NULL,
                verified_at \(unsafeRaw: t.timestamp),
                mismatch \(unsafeRaw: t.bool) NOT NULL,
                position \(unsafeRaw: t.int) NOT NULL,
                created_at \(unsafeRaw: t.timestamp) NOT NULL,
                CONSTRAINT ad_photos_position UNIQUE (appointment_id, kind, position)
            )
            """).run()
    }

    func revert(on database: any Database) async throws {
        try await database.sql.raw("DROP TABLE ad_photos").run()
        try await database.sql.raw("DROP TABLE ad_uploads").run()
    }
}
