import AppCore
import Fluent
import Foundation
import SQLKit

extension MetadataPatch {
    /// The new value of `visits.metadata` for an UPDATE. PostgreSQL merges inside the database in one statement,
    /// so concurrent merges of different keys both survive without a lock; SQLite has no such operator with
    /// whole-value semantics (json_patch merges nested objects), so the caller must hold the write lock
    /// (`writeTransaction`, BEGIN IMMEDIATE) and pass the row's metadata as read under it.
    func sqlValue(current: [String: JSONValue], on db: any Database) throws -> SQLQueryString {
        switch db.engine {
        case .postgres:
            let setJSON = String(decoding: try JSONCoding.encoder.encode(JSONValue.object(set)), as: UTF8.self)
            return "((metadata || \(bind: setJSON)::jsonb) - \(bind: remove.sorted())::text[])"
        case .sqlite:
            let merged = JSONValue.object(applied(to: current))
            return "\(bind: String(decoding: try JSONCoding.encoder.encode(merged), as: UTF8.self))"
        }
    }
}
