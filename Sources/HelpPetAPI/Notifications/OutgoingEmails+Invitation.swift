import Foundation
import Mail
import MailOutbox

extension OutgoingEmails {
    /// The invitation email, queued with the invitation it carries the code of.
    func enqueueInvitation(_ facts: InvitationMailFacts, now: Date) async throws {
        let message = InvitationMail.message(facts, sender: sender, now: now)
        try await enqueue(
            OutgoingMail(
                messageID: message.messageID, kind: MailKind.practiceInvitation.rawValue, appointmentID: nil, icsSequence: nil,
                sender: sender.address, recipient: facts.recipient, rawMessage: message.render()),
            now: now)
    }
}
