import AppCore
import Foundation

/// The limits of contract §2.7, counted in the shared attempt ledger (per process on SQLite, across every process on
/// PostgreSQL). Sliding windows: a refused caller waits until the oldest counted attempt leaves the window.
struct RateLimits: Sendable {
    static let installInit = AttemptRule(name: "autodetail.ios_init", limit: 10, window: 3600)
    static let validateKey = AttemptRule(name: "autodetail.validate_key", limit: 30, window: 60)
    static let loginPerIP = AttemptRule(name: "autodetail.admin_login.ip", limit: 20, window: 900)
    static let loginFailuresPerUserAndIP = AttemptRule(name: "autodetail.admin_login.pair", limit: 5, window: 900)
    static let loginFailuresPerUser = AttemptRule(name: "autodetail.admin_login.user", limit: 50, window: 900)

    let ledger: any AttemptLedger
    /// Failed admin logins per (username, IP), cleared by a success, and per username from every IP.
    let adminLogin: LoginThrottle

    init(ledger: any AttemptLedger, clock: any AppClock) {
        self.ledger = ledger
        adminLogin = LoginThrottle(
            limits: [
                .init(Self.loginFailuresPerUserAndIP, per: .usernameAndIP),
                .init(Self.loginFailuresPerUser, per: .username),
            ],
            ledger: ledger, clock: clock)
    }
}
