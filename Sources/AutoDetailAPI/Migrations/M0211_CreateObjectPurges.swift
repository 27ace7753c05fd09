import AppCore
import Fluent
import SQLKit

/// Keys of deleted photos whose presigned PUT may still be used (docs/recording-safety.md): on S3, where an
/// upload cannot be refused, the upload cleanup removes whatever lands under them once the URL has expired.
struct M0211_CreateObjectPurges: AsyncMigration {
    var name: String { "M0211_AutoDetailCreateObjectPurges" }

    func prepare(on database: any Database) async throws {
        let t = SchemaTypes(database.engine)
        try await database.sql.raw("""
            CREATE TABLE ad_object_purges (
                object_key \(unsafeRaw: t.text) PRIMARY KEY,
                purge_after \(unsafeRaw: t.timestamp) NOT NULL,
                created_at \(unsafeRaw: t.timestamp) NOT NULL
            )
            """).run()
        try await database.sql.raw("CREATE INDEX ad_object_purges_due ON ad_object_purges (purge_after)").run()
    }

    func revert(on database: any Database) async throws {
        try await database.sql.raw("DROP TABLE ad_object_purges").run()
    }
}
