import AppCore
import Foundation
import Vapor

/// The studio console's sign-in, sessions and sign-out. A console session IS an admin session of the contract
/// (§2.6, §4.7.1): the cookie holds the admin token (`adm_…`), the row is in `ad_admin_sessions` with its 12-hour
/// absolute lifetime and token version, `POST /api/admin/logout` and a password change end it exactly as they end
/// a token. Sign-in goes through the same login throttle as `POST /api/admin/login`, so failures in the console and
/// on the API add up.
package enum StudioSession {
    package static let cookieName = "autodetail_session"

    package enum SignInOutcome: Sendable {
        case signedIn(cookieToken: String)
        case failed
        case throttled(retryAfter: Int)
    }

    /// The signed-in admin of a console page.
    package struct Admin: Sendable {
        /// SHA-256 of the token (`Secrets.hash`), what the CSRF token is derived from.
        package let sessionHash: String
        package let username: String
    }

    /// The admin login of §4.7.1 for a browser: username trimmed and lower-cased, password at most 128 characters,
    /// and the API's throttle (`RateLimits.adminLogin`: failures per (username, IP), username and IP).
    package static func signIn(username rawUsername: String, password: String, request: Request) async throws
        -> SignInOutcome
    {
        let username = rawUsername.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        guard password.count <= 128 else { return .failed }
        switch try await AdminSignIn.check(username: username, password: password, request: request) {
        case .refused(let wait):
            return .throttled(retryAfter: max(1, wait))
        case .failed:
            return .failed
        case .succeeded(let user):
            let (token, _) = try await AdminSignIn.startSession(user, viaConsole: true, request: request)
            return .signedIn(cookieToken: token)
        }
    }

    /// The admin of a live session (not expired, not revoked, token version current), or nil.
    package static func admin(cookieToken: String, request: Request) async throws -> Admin? {
        guard Secrets.isAdminToken(cookieToken) else { return nil }
        let hash = Secrets.hash(cookieToken)
        guard let caller = try await request.adminSessions.liveSession(tokenHash: hash, now: request.now),
            let user = try await request.adminSessions.user(caller.userID)
        else { return nil }
        request.setAdminCaller(caller)
        return Admin(sessionHash: hash, username: user.username)
    }

    /// Ends the session (as `POST /api/admin/logout`).
    package static func signOut(cookieToken: String, request: Request) async throws {
        guard Secrets.isAdminToken(cookieToken),
            let caller = try await request.adminSessions.liveSession(tokenHash: Secrets.hash(cookieToken), now: request.now)
        else { return }
        try await request.adminSessions.endSession(caller.sessionID, now: request.now)
    }

    /// The signed-in admin's live sessions (console and API), newest first, the current one marked.
    package static func devices(cookieToken: String, request: Request) async throws -> [StudioDevice] {
        let hash = Secrets.hash(cookieToken)
        guard let caller = try await request.adminSessions.liveSession(tokenHash: hash, now: request.now) else {
            return []
        }
        return try await request.adminSessions.devices(userID: caller.userID, now: request.now).map {
            StudioDevice(signedInAt: $0.createdAt, expiresAt: $0.expiresAt, viaConsole: $0.viaConsole,
                         userAgent: $0.userAgent, clientIP: $0.clientIp, isCurrent: $0.tokenHash == hash)
        }
    }

    /// "Sign out everywhere": every session of the admin ends, console and API, this one included.
    package static func signOutEverywhere(cookieToken: String, request: Request) async throws {
        guard Secrets.isAdminToken(cookieToken),
            let caller = try await request.adminSessions.liveSession(tokenHash: Secrets.hash(cookieToken), now: request.now)
        else { return }
        try await request.adminSessions.endAllSessions(userID: caller.userID, now: request.now)
    }

    /// An admin API call made by a console page: the cookie's session plus its CSRF token in `X-CSRF-Token`
    /// (403 without it, before anything else is looked at); then the same check as a bearer token.
    static func authenticateAPICall(_ request: Request, cookieToken: String) async throws {
        let hash = Secrets.hash(cookieToken)
        guard request.core.consoleCredentials.isValid(
            csrf: request.headers.first(name: ConsoleCredentials.csrfHeader), forSessionHash: hash)
        else { throw APIError.forbidden("CSRF token missing or invalid") }
        guard Secrets.isAdminToken(cookieToken),
            let caller = try await request.adminSessions.liveSession(tokenHash: hash, now: request.now)
        else { throw APIError.invalidAdminToken }
        request.setAdminCaller(caller)
        request.loggedSubject = "admin:" + caller.userID.lowercased
    }
}

/// One signed-in device of the studio's account page.
package struct StudioDevice: Sendable {
    package let signedInAt: Date
    package let expiresAt: Date
    /// A console browser, else an API session (the `autodetail` CLI, a script).
    package let viaConsole: Bool
    package let userAgent: String?
    package let clientIP: String?
    package let isCurrent: Bool
}
