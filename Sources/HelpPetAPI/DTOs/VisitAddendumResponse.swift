import AppCore
import Foundation

/// One addendum of an approved visit note.
struct VisitAddendumResponse: Encodable, Sendable {
    let id: String
    let visit_id: String
    let author_id: String
    let author_name: String
    let text: String
    let created_at: Date

    init(_ row: VisitAddendumStore.Row) {
        id = row.id.lowercased
        visit_id = row.visit_id.lowercased
        author_id = row.author_id.lowercased
        author_name = row.author_name
        text = row.text
        created_at = row.created_at
    }
}
