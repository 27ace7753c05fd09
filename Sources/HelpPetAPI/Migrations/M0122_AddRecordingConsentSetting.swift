import AppCore
import Fluent
import SQLKit

/// The practice's recording-consent setting: when true, `initiate` refuses to start a recording whose
/// appointment (or day slot) has no confirmed owner agreement. Off by default, so existing clients that never send
/// `owner_consent_confirmed` keep working.
struct M0122_AddRecordingConsentSetting: AsyncMigration {
    var name: String { "M0122_AddRecordingConsentSetting" }

    func prepare(on database: any Database) async throws {
        let t = SchemaTypes(database.engine)
        try await database.sql.raw("""
            ALTER TABLE practices ADD COLUMN recording_consent_required \(unsafeRaw: t.bool) NOT NULL DEFAULT \(unsafeRaw: t.false)
            """).run()
    }

    func revert(on database: any Database) async throws {
        try await database.sql.raw("ALTER TABLE practices DROP COLUMN recording_consent_required").run()
    }
}
