import AppCore
import Fluent
import Foundation
import Vapor

/// The clinic console's sign-in, sessions and sign-out: the same users, password check, login throttle and token
/// versions as `POST /auth/token`, with the session kept server-side so that sign-out ends it.
package enum ClinicSession {
    package static let cookieName = "helppet_session"
    /// As long as an access token (contract §2.1), absolute: not extended by use.
    static let lifetime = TimeInterval(TokenService.lifetimeSeconds)
    /// Live console sessions one user may have; signing in on one more browser ends the oldest.
    package static let maxLiveSessions = 20

    package enum SignInOutcome: Sendable {
        case signedIn(cookieToken: String)
        case failed
        case throttled(retryAfter: Int)
    }

    /// Checks the password through the API's login throttle (failures here count against the same limits as
    /// failures on `/auth/token`) and opens a session.
    package static func signIn(username: String, password: String, request: Request) async throws -> SignInOutcome {
        switch try await UserSignIn.check(username: username, password: password, request: request) {
        case .refused(let wait):
            return .throttled(retryAfter: wait)
        case .failed:
            return .failed
        case .succeeded(let user):
            let token = ConsoleCredentials.newSessionToken()
            let now = request.core.clock.now()
            try await ConsoleSessionStore(db: request.db).prune(before: now.addingTimeInterval(-86_400))
            let userAgent = request.headers.first(name: .userAgent).map { String($0.prefix(300)) }
            try await ConsoleSessionStore(db: request.db).create(
                tokenHash: ConsoleCredentials.hash(token), userID: user.id!, tokenVersion: user.tokenVersion,
                device: (userAgent, request.core.clientAddress.ip(of: request)), now: now, lifetime: lifetime,
                maxLive: maxLiveSessions)
            return .signedIn(cookieToken: token)
        }
    }

    /// The signed-in user of a console page, or nil (no cookie, expired, signed out, token version moved on,
    /// deactivated). Sets the request's caller, so the domain's scoping rules apply to everything the page reads.
    package static func user(cookieToken: String, request: Request) async throws -> ConsoleUser? {
        let hash = ConsoleCredentials.hash(cookieToken)
        guard let live = try await ConsoleSessionStore(db: request.db).live(tokenHash: hash, now: request.core.clock.now())
        else { return nil }
        do {
            try await BearerAuthMiddleware.admit(request, userID: live.userID, tokenVersion: live.tokenVersion)
        } catch let error as APIError where error.status == .unauthorized {
            return nil
        }
        let caller = try request.caller
        // The identity `admit` just used, from the one-second cache: no query for the header's name.
        guard let identity = try await request.readPathCaches.identity(of: caller.id, on: request.db) else { return nil }
        return ConsoleUser(
            id: caller.id, sessionHash: hash,
            displayName: identity.fullName.isEmpty ? identity.username : identity.fullName,
            role: caller.role, practiceID: caller.practiceID, petOwnerID: caller.petOwnerID)
    }

    package static func signOut(cookieToken: String, request: Request) async throws {
        try await ConsoleSessionStore(db: request.db).revoke(
            tokenHash: ConsoleCredentials.hash(cookieToken), now: request.core.clock.now())
    }

    /// The signed-in user's live console sessions, newest first, the current one marked.
    package static func devices(request: Request) async throws -> [ConsoleDevice] {
        let caller = try request.caller
        let current = request.consoleSessionHash
        return try await ConsoleSessionStore(db: request.db).devices(userID: caller.id, now: request.core.clock.now())
            .map { ConsoleDevice(signedInAt: $0.createdAt, expiresAt: $0.expiresAt, userAgent: $0.userAgent,
                                 clientIP: $0.clientIP, isCurrent: $0.tokenHash == current) }
    }

    /// "Sign out everywhere": every console session and every app token of the user ends (the token version moves
    /// on, which voids every JWT the app holds), this browser's session included.
    package static func signOutEverywhere(cookieToken: String, request: Request) async throws {
        let hash = ConsoleCredentials.hash(cookieToken)
        let now = request.core.clock.now()
        guard let live = try await ConsoleSessionStore(db: request.db).live(tokenHash: hash, now: now) else { return }
        try await request.db.writeTransaction { db in
            try await UserStore(db: db).incrementTokenVersion(live.userID)
            try await ConsoleSessionStore(db: db).revokeAll(userID: live.userID, now: now)
        }
    }

    /// An API call made by a console page: the cookie's session plus its CSRF token in the header.
    static func authenticateAPICall(_ request: Request, cookieToken: String) async throws {
        let hash = ConsoleCredentials.hash(cookieToken)
        guard request.core.consoleCredentials.isValid(
            csrf: request.headers.first(name: ConsoleCredentials.csrfHeader), forSessionHash: hash)
        else { throw APIError.forbidden("CSRF token missing or invalid") }
        guard let live = try await ConsoleSessionStore(db: request.db).live(tokenHash: hash, now: request.core.clock.now())
        else { throw APIError.invalidCredentials }
        try await BearerAuthMiddleware.admit(request, userID: live.userID, tokenVersion: live.tokenVersion)
    }
}

/// One signed-in browser of the account page's "Signed-in devices".
package struct ConsoleDevice: Sendable {
    package let signedInAt: Date
    package let expiresAt: Date
    package let userAgent: String?
    package let clientIP: String?
    package let isCurrent: Bool
}

extension Request {
    /// The hash of the console session this request came with (set by the console's session middleware).
    var consoleSessionHash: String? {
        guard let token = cookies[ClinicSession.cookieName]?.string, !token.isEmpty else { return nil }
        return ConsoleCredentials.hash(token)
    }
}

/// Who is signed in to the console.
package struct ConsoleUser: Sendable {
    package let id: UUID
    package let sessionHash: String
    package let displayName: String
    package let role: UserRole
    package let practiceID: UUID?
    package let petOwnerID: UUID?

    package var isStaff: Bool { role.isStaff }
    package var isAdmin: Bool { role == .admin }
    package var isOwner: Bool { role == .petOwner }
}
