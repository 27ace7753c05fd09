import AppCore
import Fluent
import Foundation
import SQLKit

/// Every statement on `practice_note_templates` (M0124). The body is the template as JSON text (both engines store
/// it the same way); version 1 of each key is the built-in one and is not stored.
public struct NoteTemplateStore: Sendable {
    public let db: any Database

    public init(db: any Database) { self.db = db }

    struct Row: Decodable, Sendable {
        var templateKey: String
        var version: Int
        var body: String
        var createdBy: UUID?
        var createdAt: Date

        enum CodingKeys: String, CodingKey {
            case templateKey = "template_key"
            case version, body
            case createdBy = "created_by"
            case createdAt = "created_at"
        }
    }

    public struct Stored: Sendable {
        public var template: ClinicalNoteTemplate
        public var createdBy: UUID?
        public var createdAt: Date?
    }

    /// The current version of every key for the practice: its newest stored version, else the built-in one.
    func current(practiceID: UUID) async throws -> [Stored] {
        let rows = try await db.sql.raw("""
            SELECT t.template_key, t.version, t.body, t.created_by, t.created_at FROM practice_note_templates t
            WHERE t.practice_id = \(bind: practiceID) AND t.version = (
                SELECT MAX(version) FROM practice_note_templates
                WHERE practice_id = t.practice_id AND template_key = t.template_key)
            """).all(decoding: Row.self)
        let stored = Dictionary(uniqueKeysWithValues: rows.map { ($0.templateKey, $0) })
        return try NoteTemplates.keys.map { key in
            guard let row = stored[key] else {
                return Stored(template: NoteTemplates.builtIn[key]!, createdBy: nil, createdAt: nil)
            }
            return try Self.decode(row)
        }
    }

    /// One key's current version (what a new note is drafted with).
    public func current(practiceID: UUID, key: String) async throws -> ClinicalNoteTemplate {
        let row = try await db.sql.raw("""
            SELECT template_key, version, body, created_by, created_at FROM practice_note_templates
            WHERE practice_id = \(bind: practiceID) AND template_key = \(bind: key)
            ORDER BY version DESC LIMIT 1
            """).first(decoding: Row.self)
        guard let row else { return NoteTemplates.builtIn[key] ?? NoteTemplates.builtIn["soap"]! }
        return try Self.decode(row).template
    }

    /// A given version (an old note's), nil when the practice never had it.
    func version(_ version: Int, practiceID: UUID, key: String) async throws -> Stored? {
        if version == 1 { return NoteTemplates.builtIn[key].map { Stored(template: $0, createdBy: nil, createdAt: nil) } }
        let row = try await db.sql.raw("""
            SELECT template_key, version, body, created_by, created_at FROM practice_note_templates
            WHERE practice_id = \(bind: practiceID) AND template_key = \(bind: key) AND version = \(bind: version)
            """).first(decoding: Row.self)
        return try row.map(Self.decode)
    }

    /// Stores the next version; two concurrent edits cannot take the same number (primary key), the loser retries
    /// with the number after.
    func append(
        practiceID: UUID, key: String, title: String, sections: [ClinicalNoteTemplate.Section], by userID: UUID,
        at now: Date
    ) async throws -> Stored {
        for _ in 0..<5 {
            let latest = try await db.sql.raw("""
                SELECT MAX(version) AS version FROM practice_note_templates
                WHERE practice_id = \(bind: practiceID) AND template_key = \(bind: key)
                """).first(decoding: MaxVersion.self)?.version ?? 1
            let template = ClinicalNoteTemplate(key: key, version: latest + 1, title: title, sections: sections)
            let body = String(decoding: try JSONEncoder().encode(template), as: UTF8.self)
            do {
                try await db.sql.raw("""
                    INSERT INTO practice_note_templates (practice_id, template_key, version, body, created_by, created_at)
                    VALUES (\(bind: practiceID), \(bind: key), \(bind: template.version), \(bind: body), \(bind: userID),
                        \(bind: now))
                    """).run()
                return Stored(template: template, createdBy: userID, createdAt: now)
            } catch where DatabaseFailure.isUniqueViolation(error) {
                continue
            }
        }
        throw APIError.conflict("The template is being edited by someone else; try again")
    }

    struct MaxVersion: Decodable { var version: Int? }

    static func decode(_ row: Row) throws -> Stored {
        let template = try JSONDecoder().decode(ClinicalNoteTemplate.self, from: Data(row.body.utf8))
        return Stored(template: template, createdBy: row.createdBy, createdAt: row.createdAt)
    }
}
