import AppCore
import Fluent
import Foundation
import SQLKit

/// Every statement on `practice_vocabulary` (M0120).
struct PracticeVocabularyStore: Sendable {
    let db: any Database

    struct Row: Decodable, Sendable {
        var terms: String
        var updatedAt: Date
        var updatedBy: UUID?

        enum CodingKeys: String, CodingKey {
            case terms
            case updatedAt = "updated_at"
            case updatedBy = "updated_by"
        }

        var termList: [String] { terms.split(separator: "\n").map(String.init) }
    }

    func find(practiceID: UUID) async throws -> Row? {
        try await db.sql.raw("""
            SELECT terms, updated_at, updated_by FROM practice_vocabulary WHERE practice_id = \(bind: practiceID)
            """).first(decoding: Row.self)
    }

    /// The practice's terms, in the order they were given; empty when it has none.
    public func terms(practiceID: UUID) async throws -> [String] {
        try await find(practiceID: practiceID)?.termList ?? []
    }

    /// Replaces the list whole (one statement: two concurrent PUTs leave one of the two lists, never a mix).
    func replace(practiceID: UUID, terms: [String], by userID: UUID, at now: Date)
        async throws
    {
        try await db.sql.raw("""
            INSERT INTO practice_vocabulary (practice_id, terms, updated_at, updated_by)
            VALUES (\(bind: practiceID), \(bind: terms.joined(separator: "\n")), \(bind: now), \(bind: userID))
            ON CONFLICT (practice_id) DO UPDATE SET terms = excluded.terms, updated_at = excluded.updated_at,
                updated_by = excluded.updated_by
            """).run()
    }
}
