import AppCore
import Fluent
import Foundation
import Mail
import MailOutbox

extension MailOutboxTable {
    /// The studio's outbox (M0213): its messages have no order among themselves.
    static let studio = MailOutboxTable(name: "ad_mail_outbox")
}

/// The studio admin's forgotten password (docs/login-and-sessions.md, "Studio"): the same flow as HelpPet's. A link
/// goes only to the address in the studio settings, works once for 30 minutes, and the new password ends every
/// session of the account. Takes values, never a request.
struct StudioPasswordResets: Sendable {
    static let validMinutes = 30
    static let perIP = AttemptRule(name: "autodetail.password_reset.ip", limit: 10, window: 3600)
    static let perAddress = AttemptRule(name: "autodetail.password_reset.address", limit: 3, window: 3600)

    /// The one answer to a request, whether or not the address is the studio's.
    static let requestedMessage =
        "If that is the studio's admin email address, a link to reset the password is on its way. It works for 30 minutes."
    static func throttledMessage(_ wait: Int) -> String {
        "Too many password reset requests. Try again in \(wait) seconds."
    }
    static let changedMessage = "The password has been changed. Sign in with the new one."
    static let invalidLink = "This password reset link is invalid, already used or expired. Ask for a new one."
    /// The rule of `POST /api/admin/password` (§4.7.1).
    static let lengthRule = "The new password must be 12-128 characters."

    enum RequestOutcome: Sendable, Equatable {
        case accepted
        case throttled(retryAfter: Int)
    }

    enum ConfirmOutcome: Sendable, Equatable {
        case changed
        case refused(String)
    }

    let db: any Database
    let ledger: any AttemptLedger
    let hasher: PasswordHasher
    let mailFrom: String
    let metrics: MetricsRegistry?
    /// The absolute URL of the console page the link opens; the token goes in its query.
    let confirmPageURL: String

    /// Queues the link when `email` is the studio's admin address; answers the same either way.
    func request(email: String, ip: String, now: Date) async throws -> RequestOutcome {
        let address = email.trimmingCharacters(in: .whitespacesAndNewlines)
        let keys = [Self.perIP.key(ip), Self.perAddress.key(address.lowercased())]
        if case .refused(let wait) = try await ledger.reserve(keys, hold: false, now: now, on: db) {
            return .throttled(retryAfter: wait)
        }
        let settings = try await StudioSettingsStore(db: db).current()
        guard let studioAddress = settings.adminEmail, studioAddress.lowercased() == address.lowercased(),
            let admin = try await AdminSessionStore(db: db).studioAdmin(), let adminID = admin.id
        else { return .accepted }
        let token = Secrets.newAdminToken()
        let message = StudioPasswordMail.link(
            username: admin.username, studioName: settings.studioName, to: studioAddress,
            url: confirmPageURL + "?token=" + token, validMinutes: Self.validMinutes, sender: sender, now: now)
        try await db.writeTransaction { db in
            let store = SingleUseLinkStore.adminPasswordResets(db)
            try await store.prune(before: now.addingTimeInterval(-86_400))
            try await store.create(
                owner: adminID, tokenHash: Secrets.hash(token),
                expiresAt: now.addingTimeInterval(TimeInterval(Self.validMinutes * 60)), now: now)
            try await enqueue(message, kind: "password_reset", to: studioAddress, on: db, now: now)
        }
        return .accepted
    }

    /// Sets the new password with the link's token. The token version moves on and every session ends in the same
    /// transaction, and the studio's address is told by email.
    func confirm(token: String, newPassword: String, now: Date) async throws -> ConfirmOutcome {
        guard (12...128).contains(newPassword.count) else { return .refused(Self.lengthRule) }
        let tokenHash = Secrets.hash(token)
        // bcrypt is slow on purpose; a made-up token must not make the server run it.
        guard try await SingleUseLinkStore.adminPasswordResets(db).isUsable(tokenHash: tokenHash, now: now) else {
            return .refused(Self.invalidLink)
        }
        let passwordHash = try await hasher.hash(newPassword)
        let sender = sender
        return try await db.writeTransaction { db in
            let resets = SingleUseLinkStore.adminPasswordResets(db)
            let admins = AdminSessionStore(db: db)
            guard let adminID = try await resets.use(tokenHash: tokenHash, now: now),
                let admin = try await admins.user(adminID)
            else { return .refused(Self.invalidLink) }
            try await resets.voidUnused(owner: adminID, now: now)
            try await admins.replacePasswordEverywhere(userID: adminID, newHash: passwordHash, now: now)
            let settings = try await StudioSettingsStore(db: db).current()
            if let address = settings.adminEmail {
                let notice = StudioPasswordMail.changed(
                    username: admin.username, studioName: settings.studioName, to: address, sender: sender, now: now)
                try await enqueue(notice, kind: "password_changed", to: address, on: db, now: now)
            }
            return .changed
        }
    }

    private var sender: MailAddress { MailAddress.parse(mailFrom) }

    private func enqueue(_ message: MailMessage, kind: String, to address: String, on db: any Database, now: Date)
        async throws
    {
        let mail = OutgoingMail(
            messageID: message.messageID, kind: kind, sender: sender.address, recipient: address,
            rawMessage: message.render())
        try await MailOutboxStore(db: db, table: .studio).enqueue(mail, now: now, counting: metrics)
    }
}
