import Foundation

/// The limits of contract §2.7.
struct RateLimits: Sendable {
    let installInit: SlidingWindowLimiter
    let validateKey: SlidingWindowLimiter
    let loginPerIP: SlidingWindowLimiter
    let loginFailuresPerUserAndIP: SlidingWindowLimiter
    let loginFailuresPerUser: SlidingWindowLimiter

    init(enabled: Bool) {
        installInit = SlidingWindowLimiter(limit: 10, window: 3600, enabled: enabled)
        validateKey = SlidingWindowLimiter(limit: 30, window: 60, enabled: enabled)
        loginPerIP = SlidingWindowLimiter(limit: 20, window: 900, enabled: enabled)
        loginFailuresPerUserAndIP = SlidingWindowLimiter(limit: 5, window: 900, enabled: enabled)
        loginFailuresPerUser = SlidingWindowLimiter(limit: 50, window: 900, enabled: enabled)
    }
}
