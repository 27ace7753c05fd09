import Foundation
import Mail

/// What an invitation email says.
struct InvitationMailFacts: Sendable {
    let inviteID: UUID
    let code: String
    let practiceName: String
    let inviterName: String?
    let recipient: String
    let expiresAt: Date
}

/// Writes the invitation email: plain text and HTML, no attachment. The code is in it and nowhere else (the table
/// keeps only its hash), so this message is the invitation.
enum InvitationMail {
    static func message(_ facts: InvitationMailFacts, sender: MailAddress, now: Date) -> MailMessage {
        let from = MailAddress(sender.address, displayName: facts.practiceName)
        let subject = "You are invited to join \(facts.practiceName) on HelpPet"
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEEE d MMMM yyyy, HH:mm 'UTC'"
        let expires = formatter.string(from: facts.expiresAt)
        let who = facts.inviterName.map { "\($0) invites you" } ?? "You are invited"
        let lead = "\(who) to join \(facts.practiceName) on HelpPet as veterinary staff."
        let steps = "Sign up or sign in with this email address (\(facts.recipient)), then accept the invitation with its code."
        let details: [(String, String)] = [
            ("Invitation", facts.inviteID.uuidString.lowercased()), ("Code", facts.code), ("Valid until", expires),
        ]
        let text = (["Hello,", "", lead, "", steps, ""] + details.map { "\($0.0): \($0.1)" }
            + ["", "If you did not expect this invitation, ignore this email.", "", facts.practiceName])
            .joined(separator: "\n")
        let rows = details.map {
            "<tr><th align=\"left\">\(AppointmentMail.html($0.0))</th><td>\(AppointmentMail.html($0.1))</td></tr>"
        }.joined()
        let html = """
            <!DOCTYPE html>
            <html><head><meta charset="utf-8"><title>\(AppointmentMail.html(subject))</title></head>
            <body><p>Hello,</p>
            <p>\(AppointmentMail.html(lead))</p>
            <p>\(AppointmentMail.html(steps))</p>
            <table>\(rows)</table>
            <p>If you did not expect this invitation, ignore this email.</p>
            <p>\(AppointmentMail.html(facts.practiceName))</p></body></html>
            """
        return MailMessage(
            from: from, to: [MailAddress(facts.recipient)], subject: subject, text: text, html: html, date: now,
            messageID: MailMessage.newMessageID(domain: sender.domain))
    }
}
