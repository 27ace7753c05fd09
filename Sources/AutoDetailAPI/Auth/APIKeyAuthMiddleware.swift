import AppCore
import Fluent
import Foundation
import Vapor

/// The key check of key-protected routes (contract §2.4, §2.5): `X-API-Key`, else `Authorization: Bearer`; grammar,
/// hash lookup, revocation, blocked installs and (for `/api/ios/*`) install keys only. A successful check is a use of
/// the key (§2.3). Successful checks are kept for at most one second in this process (`KeyCallerCache`), so a busy
/// key costs one lookup per second instead of one per request; revoking, blocking or deleting in this process
/// clears the cache (docs/read-path-autodetail.md states the bound across processes).
struct APIKeyAuthMiddleware: AsyncMiddleware {
    /// `/api/ios/*` routes (except init) accept install keys only.
    let installKeysOnly: Bool
    let usage: KeyUsageRecorder

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let caller = try await Self.authenticate(request.presentedAPIKey, keys: request.apiKeys)
        if installKeysOnly && caller.kind != .ios { throw APIError.installKeyRequired }
        request.setKeyCaller(caller)
        request.loggedSubject = caller.keyID.lowercased
        usage.record(caller, path: "\(request.method.rawValue) \(request.url.path)", now: request.now)
        return try await next.respond(to: request)
    }

    /// The key behind a presented value, or the §2.5 error (401 missing/invalid, 403 blocked).
    static func authenticate(_ presented: String?, keys: ApiKeyStore) async throws -> KeyCaller {
        guard let presented, !presented.isEmpty else { throw APIError.missingAPIKey }
        guard Secrets.apiKeyKind(of: presented) != nil else { throw APIError.invalidAPIKey }
        let hash = Secrets.hash(presented)
        if let cached = keys.cache.caller(forHash: hash) { return cached }
        let generation = keys.cache.generation
        guard let row = try await keys.keyCheck(hash: hash), !row.revoked, let kind = APIKeyKind(rawValue: row.kind)
        else { throw APIError.invalidAPIKey }
        if kind == .ios {
            guard row.installId != nil else { throw APIError.invalidAPIKey }
            if row.priority == InstallPriority.blocked.rawValue { throw APIError.blockedInstall }
        }
        let caller = KeyCaller(keyID: row.id, kind: kind, fullAccess: row.fullAccess, installID: row.installId)
        keys.cache.remember(caller, forHash: hash, lookedUpAt: generation)
        return caller
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
