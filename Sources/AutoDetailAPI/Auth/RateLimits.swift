import AppCore
import Foundation

/// The limits of contract §2.7, counted in the shared attempt ledger (per process on SQLite, across every process on
/// PostgreSQL). Sliding windows: a refused caller waits until the oldest counted attempt leaves the window.
struct RateLimits: Sendable {
    static let installInit = AttemptRule(name: "autodetail.ios_init", limit: 10, window: 3600)
    static let validateKey = AttemptRule(name: "autodetail.validate_key", limit: 30, window: 60)
    /// The contract's 20 per IP, counting failures only: a studio whose staff sign in from behind one NAT address
    /// must not lock itself out by signing in (docs/login-and-sessions.md, "Studio sign-in limits").
    static let loginFailuresPerIP = AttemptRule(name: "autodetail.admin_login.ip_failures", limit: 20, window: 900)
    static let loginFailuresPerUserAndIP = AttemptRule(name: "autodetail.admin_login.pair", limit: 5, window: 900)
    static let loginFailuresPerUser = AttemptRule(name: "autodetail.admin_login.user", limit: 50, window: 900)
    /// Successful sign-ins of one account from one address: generous for people, a bound for a script that mints
    /// sessions (each success costs a bcrypt check and a session row).
    static let loginSuccessesPerUserAndIP = AttemptRule(
        name: "autodetail.admin_login.pair_successes", limit: 60, window: 900)

    let ledger: any AttemptLedger
    /// Failed admin logins per (username, IP) (cleared by a success), per username from every IP and per IP for
    /// every username; successful ones per (username, IP).
    let adminLogin: LoginThrottle

    init(ledger: any AttemptLedger, clock: any AppClock) {
        self.ledger = ledger
        adminLogin = LoginThrottle(
            limits: [
                .init(Self.loginFailuresPerUserAndIP, per: .usernameAndIP),
                .init(Self.loginFailuresPerUser, per: .username),
                .init(Self.loginFailuresPerIP, per: .ip),
                .init(Self.loginSuccessesPerUserAndIP, per: .usernameAndIP, counting: .successes),
            ],
            ledger: ledger, clock: clock)
    }
}
