import AppCore
import Fluent
import SQLKit

/// The fields the shipped iPhone app reads and writes (docs/iphone-app-compatibility.md). Columns only, so both
/// engines add them in place; values the app relies on for existing rows are backfilled here.
struct M0112_AddAppCompatibilityColumns: AsyncMigration {
    var name: String { "M0112_AddAppCompatibilityColumns" }

    func prepare(on database: any Database) async throws {
        let t = SchemaTypes(database.engine)
        let list = database.engine == .postgres ? "TEXT[] NOT NULL DEFAULT '{}'" : "TEXT NOT NULL DEFAULT '[]'"
        let columns: [(table: String, definition: String)] = [
            ("pet_owners", "secondary_phone \(t.text)"),
            ("pet_owners", "emergency_contact \(t.text)"),
            ("pet_owners", """
                preferred_communication \(t.text)
                    CHECK (preferred_communication IS NULL OR preferred_communication IN ('email', 'sms', 'phone'))
                """),
            ("pet_owners", "notifications_enabled \(t.bool) NOT NULL DEFAULT \(t.true)"),
            ("pets", "spayed_neutered \(t.bool)"),
            ("pets", "medications \(t.text)"),
            ("pets", "medical_notes \(t.text)"),
            ("pets", "emergency_contact \(t.text)"),
            ("pets", "emergency_phone \(t.text)"),
            // Nullable only because SQLite cannot add a NOT NULL column without a constant default; every row is
            // backfilled below and every write sets it.
            ("medical_records", "visit_date \(t.timestamp)"),
            ("medical_records", "follow_up_required \(t.bool) NOT NULL DEFAULT \(t.false)"),
            ("medical_records", "veterinarian_name \(t.text)"),
            ("medical_records", "clinic_name \(t.text)"),
            ("medical_records", "weight \(t.double)"),
            ("medical_records", "temperature \(t.double)"),
            ("medical_records", "cost \(t.double)"),
            ("medical_records", "medical_data \(t.json)"),
            ("practices", "specialties \(list)"),
            ("practices", "accepts_new_patients \(t.bool) NOT NULL DEFAULT \(t.true)"),
            ("practices", "description \(t.text)"),
            ("practices", "website \(t.text)"),
            ("practices", "license_number \(t.text)"),
            ("practices", "admin_user_id \(t.uuid) REFERENCES users (id) ON DELETE RESTRICT"),
        ]
        for column in columns {
            try await database.sql.raw("ALTER TABLE \(unsafeRaw: column.table) ADD COLUMN \(unsafeRaw: column.definition)")
                .run()
        }
        // A record without its own visit date was made at the visit; a follow-up date means a follow-up is needed.
        try await database.sql.raw("""
            UPDATE medical_records SET visit_date = created_at,
                follow_up_required = CASE WHEN follow_up_date IS NULL THEN \(unsafeRaw: t.false) ELSE \(unsafeRaw: t.true) END
            """).run()
    }

    func revert(on database: any Database) async throws {
        let columns: [(String, [String])] = [
            ("pet_owners", ["secondary_phone", "emergency_contact", "preferred_communication", "notifications_enabled"]),
            ("pets", ["spayed_neutered", "medications", "medical_notes", "emergency_contact", "emergency_phone"]),
            ("medical_records", ["visit_date", "follow_up_required", "veterinarian_name", "clinic_name", "weight",
                                 "temperature", "cost", "medical_data"]),
            ("practices", ["specialties", "accepts_new_patients", "description", "website", "license_number",
                           "admin_user_id"]),
        ]
        for (table, names) in columns {
            for name in names {
                try await database.sql.raw("ALTER TABLE \(unsafeRaw: table) DROP COLUMN \(unsafeRaw: name)").run()
            }
        }
    }
}
