import AppCore
import Foundation
import Vapor

/// `POST /api/auth/validate-key` (§4.1.1) and `POST /api/ios/init` (§4.1.2): public and rate-limited per client IP.
struct KeyAccessController: RouteCollection {
    let limits: RateLimits

    func boot(routes: any RoutesBuilder) throws {
        routes.grouped(ValidityFlagMiddleware()).grouped(RateLimitMiddleware(rule: RateLimits.validateKey, ledger: limits.ledger))
            .jsonRoute(.POST, "auth", "validate-key", use: validateKey)
        routes.grouped(RateLimitMiddleware(rule: RateLimits.installInit, ledger: limits.ledger))
            .on(.POST, "ios", "init", use: initInstall)
    }

    @Sendable func validateKey(req: Request) async throws -> Response {
        let body = try req.autodetailBody()
        try body.requireAll(["apiKey"])
        guard case .string(let presented)? = body.object["apiKey"] else {
            throw APIError.invalidField("apiKey", "must be a string")
        }
        let caller = try await APIKeyAuthMiddleware.authenticate(
            presented.trimmingCharacters(in: .whitespacesAndNewlines), keys: req.apiKeys)
        req.application.autodetailKeyUsage.record(caller, path: "POST \(req.url.path)", now: req.now)
        return try JSONResponse.make(ValidateKeyResponse(
            valid: true, message: "API key is valid", timestamp: req.now, keyType: caller.kind.rawValue))
    }

    /// Mints a new install identity: an `ios` key (shown only here) and an empty profile with priority `normal`.
    @Sendable func initInstall(req: Request) async throws -> Response {
        let now = req.now
        let key = Secrets.newAPIKey(kind: .ios, now: now)
        let installID = try await req.installs.register(key: key, now: now)
        return try JSONResponse.make(InstallInitResponse(
            apiKey: key, baseUrl: req.photoStorage.baseURL(for: req), installId: installID.lowercased))
    }
}
