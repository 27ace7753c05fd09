import AppCore
import Fluent
import Foundation
import SQLKit
import Vapor

/// Organisation keys (contract §4.7.2): created by the admin, shown once, revocable, usage tracked.
struct AdminAPIKeysController {
    static let notFound = APIError.notFound("API key not found")

    func boot(admin: any RoutesBuilder) {
        admin.get("api-keys", use: list)
        admin.jsonRoute(.POST, "api-keys", use: create)
        admin.get("api-keys", ":keyId", use: show)
        admin.on(.DELETE, "api-keys", ":keyId", use: revoke)
    }

    /// Newest first; optional `revoked=true|false`.
    @Sendable func list(req: Request) async throws -> Response {
        let query = QueryReader(req)
        let revoked = try query.bool("revoked")
        let page = try query.pagination()
        let filtered = { () -> QueryBuilder<APIKeyRecord> in
            let q = APIKeyRecord.query(on: req.db).filter(\.$kind == APIKeyKind.org.rawValue)
            if let revoked { q.filter(\.$revoked == revoked) }
            return q
        }
        let total = try await filtered().count()
        let rows = try await filtered().sort(\.$createdAt, .descending).sort(\.$id, .descending)
            .range(page.range).all()
        return try JSONResponse.page(rows.map { APIKeyResponse($0) }, total: total)
    }

    @Sendable func show(req: Request) async throws -> Response {
        try JSONResponse.make(APIKeyResponse(try await Self.orgKey(req)))
    }

    @Sendable func create(req: Request) async throws -> Response {
        let body = try req.autodetailBody()
        try body.requireAll(["name"])
        let name = try body.string("name", min: 2, max: 100)!
        let fullAccess = try body.bool("fullAccess") ?? false
        let record = try await Self.createOrgKey(name: name, fullAccess: fullAccess, now: req.now, on: req.db)
        return try JSONResponse.make(
            APIKeyResponse(record.record, key: record.key), status: .created,
            headers: ["Location": "/api/admin/api-keys/\(record.record.id!.lowercased)"])
    }

    /// Revokes (permanently); also `204` when already revoked.
    @Sendable func revoke(req: Request) async throws -> Response {
        let key = try await Self.orgKey(req)
        try await req.db.sql.raw("""
            UPDATE ad_api_keys SET revoked = \(bind: true), revoked_at = \(bind: req.now)
            WHERE id = \(bind: key.id!) AND revoked = \(bind: false)
            """).run()
        return Response(status: .noContent)
    }

    static func orgKey(_ req: Request) async throws -> APIKeyRecord {
        let id = try req.pathID("keyId", notFound: notFound)
        guard let key = try await APIKeyRecord.find(id, on: req.db), key.kind == APIKeyKind.org.rawValue else {
            throw notFound
        }
        return key
    }

    /// A new organisation key; the returned full key is the only copy (only its hash is stored).
    static func createOrgKey(name: String, fullAccess: Bool, now: Date, on db: any Database) async throws
        -> (record: APIKeyRecord, key: String)
    {
        let key = Secrets.newAPIKey(kind: .org, now: now)
        let record = APIKeyRecord()
        record.id = UUID()
        record.kind = APIKeyKind.org.rawValue
        record.name = name
        record.keyPrefix = Secrets.keyPrefix(key)
        record.keyHash = Secrets.hash(key)
        record.fullAccess = fullAccess
        record.createdAt = now
        record.lastUsedAt = nil
        record.requestCount = 0
        record.revoked = false
        record.revokedAt = nil
        try await record.create(on: db)
        return (record, key)
    }
}
