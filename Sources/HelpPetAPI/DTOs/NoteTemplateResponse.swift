import Foundation

/// One note template as a practice has it (`GET`/`PUT /practices/{id}/note-templates[/{key}]`). `built_in` is true
/// for version 1 (shipped, never edited); `updated_at`/`updated_by` are null then (every key is always present).
struct NoteTemplateResponse: Encodable, Sendable {
    struct Section: Encodable, Sendable {
        let key: String
        let title: String
        let hint: String
        let collects: [String]
    }

    let practiceID: String
    let key: String
    let version: Int
    let title: String
    let builtIn: Bool
    let sections: [Section]
    let updatedAt: Date?
    let updatedBy: String?

    init(practiceID: UUID, _ stored: NoteTemplateStore.Stored) {
        self.practiceID = practiceID.lowercased
        key = stored.template.key
        version = stored.template.version
        title = stored.template.title
        builtIn = stored.template.version == 1
        sections = stored.template.sections.map { .init(key: $0.key, title: $0.title, hint: $0.hint, collects: $0.collects) }
        updatedAt = stored.createdAt
        updatedBy = stored.createdBy?.lowercased
    }

    enum CodingKeys: String, CodingKey {
        case practiceID = "practice_id", key, version, title, builtIn = "built_in", sections
        case updatedAt = "updated_at", updatedBy = "updated_by"
    }

    /// Written by hand so the two optional keys are sent as null rather than left out.
    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(practiceID, forKey: .practiceID)
        try c.encode(key, forKey: .key)
        try c.encode(version, forKey: .version)
        try c.encode(title, forKey: .title)
        try c.encode(builtIn, forKey: .builtIn)
        try c.encode(sections, forKey: .sections)
        try c.encode(updatedAt, forKey: .updatedAt)
        try c.encode(updatedBy, forKey: .updatedBy)
    }
}
