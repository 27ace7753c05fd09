import AppCore
import Foundation
import Vapor

/// `GET /practices` without a token: the practice directory the iPhone app's onboarding searches before the user
/// belongs to a practice (docs/iphone-app-compatibility.md). It shows only what a clinic publishes anyway (id/uuid,
/// name, address, phone, email) of active practices, and is rate-limited per client IP. With an `Authorization`
/// header the request is authenticated as everywhere else and answered by PracticesController's list, unchanged.
struct PracticeDirectoryController: RouteCollection {
    /// 60 directory requests per minute per client IP: the app asks once per search screen. Counted in the shared
    /// attempt ledger, so N API nodes on one PostgreSQL allow 60 in total.
    static let perIP = AttemptRule(name: "helppet.practice_directory", limit: 60, window: 60)

    let ledger: any AttemptLedger

    func boot(routes: any RoutesBuilder) throws {
        routes.get("practices", use: list)
    }

    @Sendable func list(req: Request) async throws -> Response {
        if req.headers.first(name: .authorization) != nil {
            // The directory's own filters are still checked (after authentication): a bad value is a 400 either way.
            let authenticated = AsyncBasicResponder { req in
                _ = try req.queryParameters.optionalBool("active_only")
                _ = try req.queryParameters.optionalBool("accepting_patients")
                return try await PracticesController().list(req: req)
            }
            // Like every practice route, refused to a pending user (PendingMembershipGate).
            let gated = AsyncBasicResponder { req in
                try await PendingMembershipGate().respond(to: req, chainingTo: authenticated)
            }
            return try await BearerAuthMiddleware().respond(to: req, chainingTo: gated)
        }
        let query = req.queryParameters
        // `active_only` is accepted for the app's sake; the directory never lists an inactive practice.
        _ = try query.optionalBool("active_only")
        let acceptingOnly = try query.optionalBool("accepting_patients") ?? false
        let page = try query.pagination()
        let key = Self.perIP.key(req.core.clientAddress.ip(of: req))
        if case .refused(let wait) = try await ledger.reserve([key], hold: false, now: req.core.clock.now(), on: req.db) {
            throw APIError.tooManyRequests("Too many practice directory requests. Try again in \(wait) seconds.", retryAfter: wait)
        }

        let (practices, total) = try await req.practices.directory(acceptingOnly: acceptingOnly, page: page)
        return try JSONResponse.page(practices.map(PracticeDirectoryEntry.init), total: total)
    }
}
