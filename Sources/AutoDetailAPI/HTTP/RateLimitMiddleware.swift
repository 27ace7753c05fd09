import AppCore
import Foundation
import Vapor

/// A per-client-IP limit evaluated before authentication and body parsing (contract §1.7 step 2, §2.7).
struct RateLimitMiddleware: AsyncMiddleware {
    let limiter: SlidingWindowLimiter

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        let ip = request.core.clientAddress.ip(of: request)
        let now = request.core.clock.now()
        if let wait = limiter.acquire(ip, now: now) { throw APIError.tooManyRequests(wait) }
        request.countedRateLimit = CountedRateLimit(limiter: limiter, key: ip, at: now)
        return try await next.respond(to: request)
    }
}

/// The event a `RateLimitMiddleware` counted for this request, so a handler can take it back when another limit
/// refuses the request (rejected requests are not counted, §2.7).
struct CountedRateLimit: Sendable {
    let limiter: SlidingWindowLimiter
    let key: String
    let at: Date

    func forget() { limiter.forget(key, at: at) }
}

extension Request {
    private struct CountedRateLimitKey: StorageKey { typealias Value = CountedRateLimit }

    var countedRateLimit: CountedRateLimit? {
        get { storage[CountedRateLimitKey.self] }
        set { storage[CountedRateLimitKey.self] = newValue }
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
