import AppCore
import Fluent
import SQLKit

/// One profile per install key (contract §3.6, §3.9): unique key reference, restricted delete of the key.
struct M0204_CreateInstallProfiles: AsyncMigration {
    var name: String { "M0204_AutoDetailCreateInstallProfiles" }

    func prepare(on database: any Database) async throws {
        let t = SchemaTypes(database.engine)
        try await database.sql.raw("""
            CREATE TABLE ad_install_profiles (
                id \(unsafeRaw: t.uuid) PRIMARY KEY,
                api_key_id \(unsafeRaw: t.uuid) NOT NULL UNIQUE REFERENCES ad_api_keys (id) ON DELETE RESTRICT,
                name \(unsafeRaw: t.text),
                car_make \(unsafeRaw: t.text),
                car_plate \(unsafeRaw: t.text),
                phone \(unsafeRaw: t.text),
                telegram \(unsafeRaw: t.text),
                profile_photo_url \(unsafeRaw: t.text),
                priority \(unsafeRaw: t.text) NOT NULL CHECK (priority IN ('normal', 'high', 'blocked')),
                search_text \(unsafeRaw: t.text) NOT NULL,
                created_at \(unsafeRaw: t.timestamp) NOT NULL,
                updated_at \(unsafeRaw: t.timestamp) NOT NULL,
                last_seen_at \(unsafeRaw: t.timestamp),
                last_activity_path \(unsafeRaw: t.text)
            )
            """).run()
        try await database.sql.raw("CREATE INDEX ad_install_profiles_last_seen ON ad_install_profiles (last_seen_at)").run()
    }

    func revert(on database: any Database) async throws {
        try await database.sql.raw("DROP TABLE ad_install_profiles").run()
    }
}
