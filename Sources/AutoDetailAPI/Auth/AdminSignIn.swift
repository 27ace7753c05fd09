import AppCore
import Foundation
import Vapor

/// The admin password check and session start that `POST /api/admin/login` and the studio console's sign-in share
/// (§4.7.1): the per-(username, IP) / per-username failure throttle around a bcrypt check, then a new admin session.
enum AdminSignIn {
    static let tokenLifetime = 43_200

    /// The token version read before the password check goes into the session: a password change committing while
    /// bcrypt runs increments it, so the session is void from the start.
    static func check(username: String, password: String, request: Request) async throws
        -> LoginThrottle.Outcome<AdminUserRecord>
    {
        let limits = RateLimits(ledger: request.core.attempts, clock: request.core.clock)
        let ip = request.core.clientAddress.ip(of: request)
        let outcome = try await limits.adminLogin.attempt(username: username, ip: ip, on: request.db) {
            () -> AdminUserRecord? in
            let user = try await request.adminSessions.user(named: username)
            let matches = try await request.core.passwordHasher.verify(password, against: user?.passwordHash)
            return matches ? user : nil
        }
        if case .failed = outcome { request.core.metrics.counter("autodetail_admin_login_failures_total").increment() }
        return outcome
    }

    /// Live console sessions one admin may have; signing in on one more browser ends the oldest. API sessions (the
    /// CLI, scripts) are not capped: the contract lets them live out their 12 hours.
    static let maxLiveConsoleSessions = 20

    /// A new session of `user`: its token (shown once, stored as a hash) and expiry.
    static func startSession(_ user: AdminUserRecord, viaConsole: Bool, request: Request) async throws
        -> (token: String, expiresAt: Date)
    {
        let token = Secrets.newAdminToken()
        let issued = request.now
        let expiresAt = issued.addingTimeInterval(TimeInterval(tokenLifetime))
        let device = AdminSessionStore.DeviceDetails(
            viaConsole: viaConsole,
            userAgent: request.headers.first(name: .userAgent).map { String($0.prefix(300)) },
            clientIP: request.core.clientAddress.ip(of: request))
        try await request.adminSessions.startSession(
            user: user, tokenHash: Secrets.hash(token), openedAt: request.core.clock.now(), expiresAt: expiresAt,
            device: device,
            maxLiveConsoleSessions: Self.maxLiveConsoleSessions)
        return (token, expiresAt)
    }
}
