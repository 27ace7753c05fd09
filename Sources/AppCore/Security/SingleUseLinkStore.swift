import Fluent
import Foundation
import SQLKit

/// Every statement on a product's table of single-use emailed links (HelpPet's `password_resets`, the studio's
/// `ad_admin_password_resets`): `id`, the owner's id column, `token_hash` (the SHA-256 of the token, never the token),
/// `created_at`, `expires_at`, `used_at`.
public struct SingleUseLinkStore: Sendable {
    public let db: any Database
    /// The table, and the column naming whose link it is.
    public let table: String
    public let ownerColumn: String

    public init(db: any Database, table: String, ownerColumn: String) {
        self.db = db
        self.table = table
        self.ownerColumn = ownerColumn
    }

    public func create(owner: UUID, tokenHash: String, expiresAt: Date, now: Date) async throws {
        try await db.sql.raw("""
            INSERT INTO \(ident: table) (id, \(ident: ownerColumn), token_hash, created_at, expires_at)
            VALUES (\(bind: UUID()), \(bind: owner), \(bind: tokenHash), \(bind: now), \(bind: expiresAt))
            """).run()
    }

    /// Whether the link is unused and unexpired, without using it (a cheap check before a slow password hash).
    public func isUsable(tokenHash: String, now: Date) async throws -> Bool {
        try await db.sql.raw("""
            SELECT id FROM \(ident: table)
            WHERE token_hash = \(bind: tokenHash) AND used_at IS NULL AND expires_at > \(bind: now)
            """).first() != nil
    }

    /// Uses the link, if it is unused and unexpired, and returns its owner. One statement decides, so of two
    /// concurrent uses of one link exactly one gets the owner.
    public func use(tokenHash: String, now: Date) async throws -> UUID? {
        try await db.sql.raw("""
            UPDATE \(ident: table) SET used_at = \(bind: now)
            WHERE token_hash = \(bind: tokenHash) AND used_at IS NULL AND expires_at > \(bind: now)
            RETURNING \(ident: ownerColumn)
            """).first()?.decode(column: ownerColumn, as: UUID.self)
    }

    /// Voids the owner's other unused links (a reset done with one link ends the others).
    public func voidUnused(owner: UUID, now: Date) async throws {
        try await db.sql.raw("""
            UPDATE \(ident: table) SET used_at = \(bind: now) WHERE \(ident: ownerColumn) = \(bind: owner) AND used_at IS NULL
            """).run()
    }

    /// Links older than `cutoff` are of no use to anyone; they go when a new one is made.
    public func prune(before cutoff: Date) async throws {
        try await db.sql.raw("DELETE FROM \(ident: table) WHERE expires_at < \(bind: cutoff)").run()
    }
}
