import AppCore
import Foundation
import Vapor

/// Organisation keys (contract §4.7.2): created by the admin, shown once, revocable, usage tracked.
struct AdminAPIKeysController: RouteCollection {
    static let notFound = APIError.notFound("API key not found")

    func boot(routes: any RoutesBuilder) throws {
        routes.get("api-keys", use: list)
        routes.jsonRoute(.POST, "api-keys", use: create)
        routes.get("api-keys", ":keyId", use: show)
        routes.on(.DELETE, "api-keys", ":keyId", use: revoke)
    }

    /// Newest first; optional `revoked=true|false`.
    @Sendable func list(req: Request) async throws -> Response {
        let query = req.autodetailQuery
        let revoked = try query.optionalBool("revoked")
        let page = try query.pagination()
        let result = try await req.apiKeys.organisationKeys(revoked: revoked, limit: page.limit, offset: page.offset)
        return try JSONResponse.page(result.items.map { APIKeyResponse($0) }, total: result.total)
    }

    @Sendable func show(req: Request) async throws -> Response {
        try JSONResponse.make(APIKeyResponse(try await Self.orgKey(req)))
    }

    @Sendable func create(req: Request) async throws -> Response {
        let body = try req.autodetailBody()
        try body.requireAll(["name"])
        let name = try body.string("name", min: 2, max: 100)!
        let fullAccess = try body.bool("fullAccess") ?? false
        // The full key is shown only in this answer; only its hash is stored.
        let key = Secrets.newAPIKey(kind: .org, now: req.now)
        let row = try await req.apiKeys.insert(kind: .org, name: name, key: key, fullAccess: fullAccess, now: req.now)
        return try JSONResponse.make(
            APIKeyResponse(row, key: key), status: .created,
            headers: ["Location": "/api/admin/api-keys/\(row.id.lowercased)"])
    }

    /// Revokes (permanently); also `204` when already revoked.
    @Sendable func revoke(req: Request) async throws -> Response {
        let key = try await Self.orgKey(req)
        try await req.apiKeys.revoke(key.id, now: req.now)
        return Response(status: .noContent)
    }

    static func orgKey(_ req: Request) async throws -> APIKeyRow {
        let id = try req.pathID("keyId", malformed: notFound)
        guard let key = try await req.apiKeys.organisationKey(id) else { throw notFound }
        return key
    }
}
