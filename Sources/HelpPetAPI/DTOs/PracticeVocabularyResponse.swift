import Foundation

/// A practice's own clinic terms (`GET`/`PUT /practices/{id}/vocabulary`). `updated_at` and `updated_by` are null
/// until the list is first saved (every key is always present).
struct PracticeVocabularyResponse: Encodable, Sendable {
    let practiceID: String
    let terms: [String]
    let updatedAt: Date?
    let updatedBy: String?

    enum CodingKeys: String, CodingKey {
        case practiceID = "practice_id", terms, updatedAt = "updated_at", updatedBy = "updated_by"
    }

    /// Written by hand so the two optional keys are sent as null rather than left out.
    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(practiceID, forKey: .practiceID)
        try c.encode(terms, forKey: .terms)
        try c.encode(updatedAt, forKey: .updatedAt)
        try c.encode(updatedBy, forKey: .updatedBy)
    }
}
