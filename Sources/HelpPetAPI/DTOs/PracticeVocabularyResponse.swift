import Foundation

/// A practice's own clinic terms (`GET`/`PUT /practices/{id}/vocabulary`). `updated_at` and `updated_by` are null
/// until the list is first saved (every key is always present).
struct PracticeVocabularyResponse: Encodable, Sendable {
    let practice_id: String
    let terms: [String]
    let updated_at: Date?
    let updated_by: String?

    enum CodingKeys: String, CodingKey { case practice_id, terms, updated_at, updated_by }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(practice_id, forKey: .practice_id)
        try c.encode(terms, forKey: .terms)
        try c.encode(updated_at, forKey: .updated_at)
        try c.encode(updated_by, forKey: .updated_by)
    }
}
