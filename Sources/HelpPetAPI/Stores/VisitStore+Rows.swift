import AppCore
import Fluent
import Foundation
import SQLKit

/// Reads of visit rows inside write transactions.
extension VisitStore {
    /// The row as it is under the transaction's lock: `FOR UPDATE` on PostgreSQL; on SQLite the caller's
    /// `BEGIN IMMEDIATE` already holds the database's write lock.
    func lockedRow(_ id: UUID) async throws -> Visit? {
        let lock = db.engine == .postgres ? " FOR UPDATE" : ""
        guard let row = try await db.sql.raw("SELECT * FROM visits WHERE id = \(bind: id)\(unsafeRaw: lock)").first()
        else { return nil }
        return try row.decode(fluentModel: Visit.self)
    }

    /// The row as it is now: a plain read without a lock (inside a transaction, what that transaction sees).
    func currentRow(_ id: UUID) async throws -> Visit? {
        try await db.sql.raw("SELECT * FROM visits WHERE id = \(bind: id)").first()?.decode(fluentModel: Visit.self)
    }
}

extension VisitStore {
    /// A JSON object as an SQL value for the `metadata` column (`jsonb` on PostgreSQL, text on SQLite).
    func jsonValue(_ object: [String: JSONValue]) throws -> SQLQueryString {
        let text = String(decoding: try JSONCoding.encoder.encode(JSONValue.object(object)), as: UTF8.self)
        return db.engine == .postgres ? "\(bind: text)::jsonb" : "\(bind: text)"
    }
}
