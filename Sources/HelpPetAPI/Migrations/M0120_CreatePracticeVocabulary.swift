import AppCore
import Fluent
import SQLKit

/// A practice's own clinic terms for the transcription engine: one row per practice, the terms one per
/// line (a term never holds a line break: PracticeVocabularyRequest refuses it), so both engines store plain text.
struct M0120_CreatePracticeVocabulary: AsyncMigration {
    var name: String { "M0120_CreatePracticeVocabulary" }

    func prepare(on database: any Database) async throws {
        let t = SchemaTypes(database.engine)
        try await database.sql.raw("""
            CREATE TABLE practice_vocabulary (
                practice_id \(unsafeRaw: t.uuid) PRIMARY KEY REFERENCES practices (id) ON DELETE CASCADE,
                terms \(unsafeRaw: t.text) NOT NULL,
                updated_at \(unsafeRaw: t.timestamp) NOT NULL,
                updated_by \(unsafeRaw: t.uuid) REFERENCES users (id) ON DELETE SET NULL
            )
            """).run()
    }

    func revert(on database: any Database) async throws {
        try await database.sql.raw("DROP TABLE practice_vocabulary").run()
    }
}
