import AppCore
import Fluent
import Foundation
import SQLKit

/// Every statement on `ad_api_keys` (contract §3.5, §2.3–2.5, §4.7.2), on both engines. Writes that change what
/// the key check answers (revocation) clear this process's `KeyCallerCache` after they are done.
struct ApiKeyStore: Sendable {
    let db: any Database
    let cache: KeyCallerCache

    private static let rowDecoding = SQLRowDecoder(keyDecodingStrategy: .convertFromSnakeCase)

    /// The key check's one statement: the key with this hash and its install (if any).
    func keyCheck(hash: String) async throws -> KeyCheckRow? {
        try await db.sql.raw("""
            SELECT k.id, k.kind, k.full_access, k.revoked, p.id AS install_id, p.priority
            FROM ad_api_keys k LEFT JOIN ad_install_profiles p ON p.api_key_id = k.id
            WHERE k.key_hash = \(bind: hash)
            """).first(decoding: KeyCheckRow.self, with: Self.rowDecoding)
    }

    /// A page of organisation keys, newest first (then id descending), with the number matching before paging.
    func organisationKeys(revoked: Bool?, limit: Int, offset: Int) async throws -> (items: [APIKeyRow], total: Int) {
        var filter: SQLQueryString = ""
        if let revoked { filter = " AND revoked = \(bind: revoked)" }
        let rows = try await db.sql.raw("""
            SELECT \(unsafeRaw: APIKeyRow.columns), COUNT(*) OVER () AS total_count FROM ad_api_keys
            WHERE kind = 'org'\(filter)
            ORDER BY created_at DESC, id DESC LIMIT \(bind: limit) OFFSET \(bind: offset)
            """).all()
        if let first = rows.first {
            let total = try first.decode(model: TotalCount.self, with: Self.rowDecoding).totalCount
            return (try rows.map { try $0.decode(model: APIKeyRow.self, with: Self.rowDecoding) }, total)
        }
        guard offset > 0 else { return ([], 0) }
        let total = try await db.sql.raw("SELECT COUNT(*) AS total_count FROM ad_api_keys WHERE kind = 'org'\(filter)")
            .first(decoding: TotalCount.self, with: Self.rowDecoding)?.totalCount ?? 0
        return ([], total)
    }

    func organisationKey(_ id: UUID) async throws -> APIKeyRow? {
        try await db.sql.raw("""
            SELECT \(unsafeRaw: APIKeyRow.columns) FROM ad_api_keys WHERE id = \(bind: id) AND kind = 'org'
            """).first(decoding: APIKeyRow.self, with: Self.rowDecoding)
    }

    /// Inserts a key of `kind` for the full value `key` (only its hash is stored) and returns the stored row.
    @discardableResult
    func insert(kind: APIKeyKind, name: String, key: String, fullAccess: Bool, now: Date) async throws -> APIKeyRow {
        guard let row = try await db.sql.raw("""
            INSERT INTO ad_api_keys (id, kind, name, key_prefix, key_hash, full_access, created_at, request_count, revoked)
            VALUES (\(bind: UUID()), \(bind: kind.rawValue), \(bind: name), \(bind: Secrets.keyPrefix(key)),
                \(bind: Secrets.hash(key)), \(bind: fullAccess), \(bind: now), 0, \(bind: false))
            RETURNING \(unsafeRaw: APIKeyRow.columns)
            """).first(decoding: APIKeyRow.self, with: Self.rowDecoding)
        else { throw APIError(.internalServerError, "Internal server error") }
        return row
    }

    /// Revokes (permanently; a revoked key stays revoked). Clears the key cache: the key answers 401 from this
    /// process's next request.
    func revoke(_ id: UUID, now: Date) async throws {
        try await db.sql.raw("""
            UPDATE ad_api_keys SET revoked = \(bind: true), revoked_at = \(bind: now)
            WHERE id = \(bind: id) AND revoked = \(bind: false)
            """).run()
        cache.invalidateAll()
    }

    private struct TotalCount: Decodable { let totalCount: Int }
}
