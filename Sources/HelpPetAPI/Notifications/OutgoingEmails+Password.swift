import Foundation
import Mail
import MailOutbox

extension OutgoingEmails {
    /// The reset link, queued with the stored hash of its token.
    func enqueuePasswordResetLink(to account: PasswordAccount, url: String, validMinutes: Int, now: Date) async throws {
        let message = PasswordResetMail.link(to: account, url: url, validMinutes: validMinutes, sender: sender, now: now)
        try await enqueue(account: account, kind: .passwordReset, message, now: now)
    }

    /// The notice that the password changed, queued with the change.
    func enqueuePasswordChanged(for account: PasswordAccount, now: Date) async throws {
        let message = PasswordResetMail.changed(for: account, sender: sender, now: now)
        try await enqueue(account: account, kind: .passwordChanged, message, now: now)
    }

    private func enqueue(account: PasswordAccount, kind: MailKind, _ message: MailMessage, now: Date) async throws {
        try await enqueue(
            OutgoingMail(
                messageID: message.messageID, kind: kind.rawValue, appointmentID: nil, icsSequence: nil,
                sender: sender.address, recipient: account.email, rawMessage: message.render()),
            now: now)
    }
}
