import Foundation
import Mail

/// The studio admin's two emails of a forgotten password: the link, and the notice that the password changed. The
/// link's token is in the first and nowhere else (the table keeps only its hash).
enum StudioPasswordMail {
    static func link(username: String, studioName: String, to address: String, url: String, validMinutes: Int,
                     sender: MailAddress, now: Date) -> MailMessage {
        NoticeMail(
            productName: studioName, subject: "Reset the studio console password", greeting: "Hello,",
            paragraphs: [
                "Someone, hopefully you, asked to reset the password of the studio console account \(username).",
                "To choose a new password, open this link within \(validMinutes) minutes. It works once.",
            ],
            link: url, closing: "If you did not ask for this, ignore this email: the password stays as it is."
        ).message(to: MailAddress(address), sender: sender, now: now)
    }

    static func changed(username: String, studioName: String, to address: String, sender: MailAddress, now: Date)
        -> MailMessage
    {
        NoticeMail(
            productName: studioName, subject: "The studio console password was changed", greeting: "Hello,",
            paragraphs: [
                "The password of the studio console account \(username) was changed with a reset link sent to this address.",
                "Every browser and app signed in to the console has been signed out; sign in again with the new password.",
            ],
            link: nil,
            closing: "If you did not change it, change it again at once: someone who can read this mailbox did."
        ).message(to: MailAddress(address), sender: sender, now: now)
    }
}
