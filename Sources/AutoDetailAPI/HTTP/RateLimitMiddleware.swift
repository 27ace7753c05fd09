import AppCore
import Foundation
import Vapor

/// A per-client-IP limit evaluated before authentication and body parsing (contract §1.7 step 2, §2.7). The request
/// is counted before it is processed, so parallel requests cannot exceed the limit.
struct RateLimitMiddleware: AsyncMiddleware {
    let rule: AttemptRule
    let ledger: any AttemptLedger

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let key = rule.key(request.core.clientAddress.ip(of: request))
        switch try await ledger.reserve([key], hold: false, now: request.core.clock.now(), on: request.db) {
        case .refused(let wait):
            throw APIError.tooManyRequests(wait)
        case .granted:
            break
        }
        return try await next.respond(to: request)
    }
}

/// `POST /api/auth/validate-key` answers every non-200 response with `"valid": false` next to `error` (§4.1.1).
struct ValidityFlagMiddleware: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        do {
            return try await next.respond(to: request)
        } catch var error as APIError {
            error.extraFields["valid"] = .bool(false)
            throw error
        } catch let abort as any AbortError where abort.status == .payloadTooLarge {
            throw APIError(.payloadTooLarge, "Request body too large", extraFields: ["valid": .bool(false)])
        } catch {
            if DatabaseFailure.isUnavailable(error) {
                var unavailable = APIError.serviceUnavailable
                unavailable.extraFields["valid"] = .bool(false)
                throw unavailable
            }
            request.logger.error("internal error: \(String(reflecting: error))")
            throw APIError(.internalServerError, "Internal server error", extraFields: ["valid": .bool(false)])
        }
    }
}
