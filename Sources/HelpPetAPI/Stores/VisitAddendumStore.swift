import AppCore
import Fluent
import Foundation
import SQLKit

/// The addenda of visit notes (M0123): insert and list, nothing else.
struct VisitAddendumStore: Sendable {
    let db: any Database

    struct Row: Decodable, Sendable {
        let id: UUID
        let visitID: UUID
        let authorID: UUID
        let authorName: String
        let text: String
        let createdAt: Date

        enum CodingKeys: String, CodingKey {
            case id
            case visitID = "visit_id"
            case authorID = "author_id"
            case authorName = "author_name"
            case text
            case createdAt = "created_at"
        }
    }

    /// Appends at the next position; two concurrent appends to one visit may pick the same one, and the loser of
    /// the unique constraint tries again.
    func insert(visit: UUID, author: UUID, text: String, now: Date) async throws -> UUID {
        let id = UUID()
        for attempt in 1...5 {
            do {
                try await db.sql.raw("""
                    INSERT INTO visit_addenda (id, visit_id, author_id, text, position, created_at)
                    SELECT \(bind: id), \(bind: visit), \(bind: author), \(bind: text), COALESCE(MAX(position), 0) + 1,
                        \(bind: now)
                    FROM visit_addenda WHERE visit_id = \(bind: visit)
                    """).run()
                return id
            } catch where DatabaseFailure.isUniqueViolation(error) && attempt < 5 {
                continue
            }
        }
        return id
    }

    /// Oldest first (the order they were written in), with each author's name.
    func list(visit: UUID) async throws -> [Row] {
        try await db.sql.raw("""
            SELECT a.id, a.visit_id, a.author_id, u.full_name AS author_name, a.text, a.created_at
            FROM visit_addenda a JOIN users u ON u.id = a.author_id
            WHERE a.visit_id = \(bind: visit)
            ORDER BY a.position
            """).all(decoding: Row.self)
    }
}
