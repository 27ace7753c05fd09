import AppCore
import Foundation

/// One addendum of an approved visit note.
struct VisitAddendumResponse: Encodable, Sendable {
    let id: String
    let visitID: String
    let authorID: String
    let authorName: String
    let text: String
    let createdAt: Date

    enum CodingKeys: String, CodingKey {
        case id, visitID = "visit_id", authorID = "author_id", authorName = "author_name", text
        case createdAt = "created_at"
    }

    init(_ row: VisitAddendumStore.Row) {
        id = row.id.lowercased
        visitID = row.visitID.lowercased
        authorID = row.authorID.lowercased
        authorName = row.authorName
        text = row.text
        createdAt = row.createdAt
    }
}
