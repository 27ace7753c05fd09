import Fluent
import Foundation
import SQLKit

/// How an outbox worker takes one due row for itself: a plain read first, so an idle poll never takes SQLite's
/// write lock (or opens a PostgreSQL transaction); then, in a write transaction, the oldest due row
/// (`FOR UPDATE SKIP LOCKED` on PostgreSQL, `BEGIN IMMEDIATE` on SQLite), leased with a conditional update that
/// re-checks the row is still due, so two workers never send the same row. A row is due when `due` holds, or when
/// it is `sending` and its lease expired (its worker died).
public struct OutboxLease: Sendable {
    public let table: String
    /// The condition of a `queued` row ready to go, its values bound.
    public let due: SQLQueryString
    /// The claim order, oldest first, ending in a unique column.
    public let order: String
    /// The leased row's columns to return.
    public let returning: String
    /// Extra SQL the row must satisfy to be chosen (over the table under its own name), or nil.
    public let choosable: String?

    public init(table: String, due: SQLQueryString, order: String, returning: String, choosable: String? = nil) {
        self.table = table
        self.due = due
        self.order = order
        self.returning = returning
        self.choosable = choosable
    }

    /// The leased row's `returning` columns, or nil when no row is due (or another worker took it first).
    public func claim(owner: String, expires: Date, now: Date, on db: any Database) async throws -> (any SQLRow)? {
        let claimable: SQLQueryString = "((\(due)) OR (status = 'sending' AND lease_expires_at < \(bind: now)))"
        let chosen: SQLQueryString = "\(claimable)\(unsafeRaw: choosable.map { " AND " + $0 } ?? "")"
        guard try await db.sql.raw("SELECT id FROM \(ident: table) WHERE \(chosen) LIMIT 1").first() != nil else {
            return nil
        }
        let table = self.table, order = self.order, returning = self.returning
        return try await db.writeTransaction { tx -> (any SQLRow)? in
            let lock = tx.engine == .postgres ? " FOR UPDATE SKIP LOCKED" : ""
            guard let row = try await tx.sql.raw("""
                SELECT id FROM \(ident: table) WHERE \(chosen) ORDER BY \(unsafeRaw: order) LIMIT 1\(unsafeRaw: lock)
                """).first() else { return nil }
            let candidate = try row.decode(column: "id", as: UUID.self)
            return try await tx.sql.raw("""
                UPDATE \(ident: table) SET status = 'sending', lease_owner = \(bind: owner),
                    lease_expires_at = \(bind: expires), attempts = attempts + 1, updated_at = \(bind: now)
                WHERE id = \(bind: candidate) AND \(claimable)
                RETURNING \(unsafeRaw: returning)
                """).first()
        }
    }
}
