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

    let practice_id: String
    let key: String
    let version: Int
    let title: String
    let built_in: Bool
    let sections: [Section]
    let updated_at: Date?
    let updated_by: String?

    init(practiceID: UUID, _ stored: NoteTemplateStore.Stored) {
        practice_id = practiceID.lowercased
        key = stored.template.key
        version = stored.template.version
        title = stored.template.title
        built_in = stored.template.version == 1
        sections = stored.template.sections.map { .init(key: $0.key, title: $0.title, hint: $0.hint, collects: $0.collects) }
        updated_at = stored.createdAt
        updated_by = stored.createdBy?.lowercased
    }

    enum CodingKeys: String, CodingKey { case practice_id, key, version, title, built_in, sections, updated_at, updated_by }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(practice_id, forKey: .practice_id)
        try c.encode(key, forKey: .key)
        try c.encode(version, forKey: .version)
        try c.encode(title, forKey: .title)
        try c.encode(built_in, forKey: .built_in)
        try c.encode(sections, forKey: .sections)
        try c.encode(updated_at, forKey: .updated_at)
        try c.encode(updated_by, forKey: .updated_by)
    }
}
