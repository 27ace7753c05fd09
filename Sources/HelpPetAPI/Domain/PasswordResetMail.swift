import Foundation
import Mail

/// Writes the two emails of a forgotten password: the link, and the notice that the password changed. Plain text and
/// HTML, no attachment. The link's token is in the first and nowhere else (the table keeps only its hash).
enum PasswordResetMail {
    static func link(to account: PasswordAccount, url: String, validMinutes: Int, sender: MailAddress, now: Date)
        -> MailMessage
    {
        let subject = "Reset your HelpPet password"
        let paragraphs = [
            "Someone, hopefully you, asked to reset the password of the HelpPet account \(account.username).",
            "To choose a new password, open this link within \(validMinutes) minutes. It works once.",
        ]
        let ignore = "If you did not ask for this, ignore this email: your password stays as it is."
        return message(
            to: account, subject: subject, paragraphs: paragraphs, link: url, closing: ignore, sender: sender, now: now)
    }

    static func changed(for account: PasswordAccount, sender: MailAddress, now: Date) -> MailMessage {
        let subject = "Your HelpPet password was changed"
        let paragraphs = [
            "The password of the HelpPet account \(account.username) was changed with a reset link from this address.",
            "Every device and browser signed in to the account has been signed out; sign in again with the new password.",
        ]
        let warn = "If you did not change it, contact your practice at once: someone who can read your email did."
        return message(
            to: account, subject: subject, paragraphs: paragraphs, link: nil, closing: warn, sender: sender, now: now)
    }

    private static func message(
        to account: PasswordAccount, subject: String, paragraphs: [String], link: String?, closing: String,
        sender: MailAddress, now: Date
    ) -> MailMessage {
        NoticeMail(
            productName: "HelpPet", subject: subject,
            greeting: "Hello \(account.fullName.isEmpty ? account.username : account.fullName),",
            paragraphs: paragraphs, link: link, closing: closing
        ).message(to: MailAddress(account.email), sender: sender, now: now)
    }
}
