import AppCore
import Fluent
import SQLKit

/// API keys (contract §3.5, §3.9): only the SHA-256 of a key is stored (unique); install keys never have full access.
struct M0203_CreateAPIKeys: AsyncMigration {
    var name: String { "M0203_AutoDetailCreateAPIKeys" }

    func prepare(on database: any Database) async throws {
        let t = SchemaTypes(database.engine)
        try await database.sql.raw("""
            CREATE TABLE ad_api_keys (
                id \(unsafeRaw: t.uuid) PRIMARY KEY,
                kind \(unsafeRaw: t.text) NOT NULL CHECK (kind IN ('org', 'ios')),
                name \(unsafeRaw: t.text) NOT NULL,
                key_prefix \(unsafeRaw: t.text) NOT NULL,
                key_hash \(unsafeRaw: t.text) NOT NULL UNIQUE CHECK (length(key_hash) = 64),
                full_access \(unsafeRaw: t.bool) NOT NULL,
                created_at \(unsafeRaw: t.timestamp) NOT NULL,
                last_used_at \(unsafeRaw: t.timestamp),
                request_count \(unsafeRaw: t.bigint) NOT NULL DEFAULT 0 CHECK (request_count >= 0),
                revoked \(unsafeRaw: t.bool) NOT NULL,
                revoked_at \(unsafeRaw: t.timestamp),
                CONSTRAINT ad_api_keys_install_scope CHECK (kind = 'org' OR full_access = \(unsafeRaw: t.false))
            )
            """).run()
        try await database.sql.raw("CREATE INDEX ad_api_keys_kind_created ON ad_api_keys (kind, created_at)").run()
    }

    func revert(on database: any Database) async throws {
        try await database.sql.raw("DROP TABLE ad_api_keys").run()
    }
}
