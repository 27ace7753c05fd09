import AppCore
import Fluent
import Foundation
import SQLKit
import Vapor

/// The key check of key-protected routes (contract §2.4, §2.5): `X-API-Key`, else `Authorization: Bearer`; grammar,
/// hash lookup, revocation, blocked installs and (for `/api/ios/*`) install keys only. Never cached: revocation and
/// blocking apply from the next request. A successful check is a use of the key (§2.3).
struct APIKeyAuthMiddleware: AsyncMiddleware {
    /// `/api/ios/*` routes (except init) accept install keys only.
    let installKeysOnly: Bool
    let usage: KeyUsageRecorder

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let caller = try await Self.authenticate(request.presentedAPIKey, on: request.db)
        if installKeysOnly && caller.kind != .ios { throw APIError.installKeyRequired }
        request.setKeyCaller(caller)
        request.loggedSubject = caller.keyID.lowercased
        usage.record(caller, path: "\(request.method.rawValue) \(request.url.path)", now: request.now)
        return try await next.respond(to: request)
    }

    /// The key behind a presented value, or the §2.5 error (401 missing/invalid, 403 blocked).
    static func authenticate(_ presented: String?, on db: any Database) async throws -> KeyCaller {
        guard let presented, !presented.isEmpty else { throw APIError.missingAPIKey }
        guard Secrets.apiKeyKind(of: presented) != nil else { throw APIError.invalidAPIKey }
        let row = try await db.sql.raw("""
            SELECT k.id, k.kind, k.full_access, k.revoked, p.id AS install_id, p.priority
            FROM ad_api_keys k LEFT JOIN ad_install_profiles p ON p.api_key_id = k.id
            WHERE k.key_hash = \(bind: Secrets.hash(presented))
            """).first()
        guard let row, try row.decode(column: "revoked", as: Bool.self) == false,
            let kind = APIKeyKind(rawValue: try row.decode(column: "kind", as: String.self))
        else { throw APIError.invalidAPIKey }
        let installID = try row.decode(column: "install_id", as: UUID?.self)
        if kind == .ios {
            guard installID != nil else { throw APIError.invalidAPIKey }
            if try row.decode(column: "priority", as: String?.self) == InstallPriority.blocked.rawValue {
                throw APIError.blockedInstall
            }
        }
        return KeyCaller(
            keyID: try row.decode(column: "id", as: UUID.self), kind: kind,
            fullAccess: try row.decode(column: "full_access", as: Bool.self), installID: installID)
    }
}

extension Request {
    /// `X-API-Key` when present and not empty, else the token of `Authorization: Bearer` (nil when neither).
    var presentedAPIKey: String? {
        if let header = headers.first(name: "X-API-Key")?.trimmingCharacters(in: .whitespaces), !header.isEmpty {
            return header
        }
        guard let authorization = headers.first(name: .authorization) else { return nil }
        let parts = authorization.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "bearer" else {
            // A credential of another scheme is passed on as is: it fails the key grammar (401 Invalid API key).
            let value = authorization.trimmingCharacters(in: .whitespaces)
            return value.isEmpty ? nil : value
        }
        let token = parts[1].trimmingCharacters(in: .whitespaces)
        return token.isEmpty ? nil : token
    }
}
