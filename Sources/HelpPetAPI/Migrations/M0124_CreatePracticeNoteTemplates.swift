import AppCore
import Fluent
import SQLKit

/// A practice's own versions of the note templates. Append-only: an edit is a new row with the next
/// version, so a note written with version 2 can always be shown with version 2's sections. Version 1 of every key is
/// built in (NoteTemplates.builtIn) and never stored.
struct M0124_CreatePracticeNoteTemplates: AsyncMigration {
    var name: String { "M0124_CreatePracticeNoteTemplates" }

    func prepare(on database: any Database) async throws {
        let t = SchemaTypes(database.engine)
        try await database.sql.raw("""
            CREATE TABLE practice_note_templates (
                practice_id \(unsafeRaw: t.uuid) NOT NULL REFERENCES practices (id) ON DELETE CASCADE,
                template_key \(unsafeRaw: t.text) NOT NULL,
                version \(unsafeRaw: t.int) NOT NULL CHECK (version >= 2),
                body \(unsafeRaw: t.text) NOT NULL,
                created_by \(unsafeRaw: t.uuid) REFERENCES users (id) ON DELETE SET NULL,
                created_at \(unsafeRaw: t.timestamp) NOT NULL,
                PRIMARY KEY (practice_id, template_key, version)
            )
            """).run()
    }

    func revert(on database: any Database) async throws {
        try await database.sql.raw("DROP TABLE practice_note_templates").run()
    }
}
