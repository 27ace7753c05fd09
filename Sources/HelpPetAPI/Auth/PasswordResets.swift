import AppCore
import Fluent
import Foundation

/// A forgotten password (docs/login-and-sessions.md, "Forgotten password"): an email with a single-use link that
/// works for 30 minutes, then a new password that ends every session of the account. Shared by
/// `POST /auth/password-reset…` and the clinic console's pages; takes values, never a request.
struct PasswordResets: Sendable {
    static let validMinutes = 30
    /// Requests per IP and per address, counted whether or not the address has an account (so the limit tells
    /// nothing either), in the shared attempt ledger.
    static let perIP = AttemptRule(name: "helppet.password_reset.ip", limit: 10, window: 3600)
    static let perAddress = AttemptRule(name: "helppet.password_reset.address", limit: 3, window: 3600)

    /// The one answer to a request, whether or not the address has an account.
    static let requestedMessage =
        "If an account uses that email address, a link to reset its password is on its way. It works for 30 minutes."
    static func throttledMessage(_ wait: Int) -> String {
        "Too many password reset requests. Try again in \(wait) seconds."
    }
    static let changedMessage = "Your password has been changed. Sign in with the new one."
    static let invalidLink = APIError.badRequest(
        "This password reset link is invalid, already used or expired. Ask for a new one.")

    enum RequestOutcome: Sendable, Equatable {
        case accepted
        case throttled(retryAfter: Int)
    }

    let db: any Database
    let ledger: any AttemptLedger
    let hasher: PasswordHasher
    let mailFrom: String
    let metrics: MetricsRegistry?
    /// The absolute URL of the console page the link opens; the token goes in its query.
    let confirmPageURL: String

    /// Queues the link when `email` is an active account's address; answers the same either way.
    func request(email: String, ip: String, now: Date) async throws -> RequestOutcome {
        let address = email.trimmingCharacters(in: .whitespacesAndNewlines)
        let keys = [Self.perIP.key(ip), Self.perAddress.key(address.lowercased())]
        if case .refused(let wait) = try await ledger.reserve(keys, hold: false, now: now, on: db) {
            return .throttled(retryAfter: wait)
        }
        guard let account = try await UserStore(db: db).activeAccount(email: address) else { return .accepted }
        let token = ConsoleCredentials.newSessionToken()
        let url = confirmPageURL + "?token=" + token
        let (mailFrom, metrics) = (mailFrom, metrics)
        try await db.writeTransaction { db in
            let store = SingleUseLinkStore.passwordResets(db)
            try await store.prune(before: now.addingTimeInterval(-86_400))
            try await store.create(
                owner: account.id, tokenHash: ConsoleCredentials.hash(token),
                expiresAt: now.addingTimeInterval(TimeInterval(Self.validMinutes * 60)), now: now)
            try await OutgoingEmails(db: db, mailFrom: mailFrom, metrics: metrics)
                .enqueuePasswordResetLink(to: account, url: url, validMinutes: Self.validMinutes, now: now)
        }
        return .accepted
    }

    /// Sets the new password with the link's token; returns the account's user id. The token version moves on and
    /// every console session ends in the same transaction, and the account is told by email.
    func confirm(token: String, newPassword: String, now: Date) async throws -> UUID {
        try PasswordRules.check(newPassword, field: "new_password")
        let tokenHash = ConsoleCredentials.hash(token)
        // bcrypt is slow on purpose; a made-up token must not make the server run it.
        guard try await SingleUseLinkStore.passwordResets(db).isUsable(tokenHash: tokenHash, now: now) else { throw Self.invalidLink }
        let passwordHash = try await hasher.hash(newPassword)
        let (mailFrom, metrics) = (mailFrom, metrics)
        return try await db.writeTransaction { db in
            let store = SingleUseLinkStore.passwordResets(db)
            guard let userID = try await store.use(tokenHash: tokenHash, now: now),
                let account = try await UserStore(db: db).activeAccount(id: userID)
            else { throw Self.invalidLink }
            try await store.voidUnused(owner: userID, now: now)
            try await UserStore(db: db).replacePassword(userID, hash: passwordHash, now: now)
            try await ConsoleSessionStore(db: db).revokeAll(userID: userID, now: now)
            try await OutgoingEmails(db: db, mailFrom: mailFrom, metrics: metrics)
                .enqueuePasswordChanged(for: account, now: now)
            return userID
        }
    }
}
