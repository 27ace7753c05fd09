import AppCore
import Fluent
import Foundation
import Mail

/// Enqueues an invitation email in the caller's transaction, so the invitation and its email commit together.
struct InvitationEmails: Sendable {
    let db: any Database
    let sender: MailAddress
    let metrics: MetricsRegistry?

    init(db: any Database, mailFrom: String, metrics: MetricsRegistry?) {
        self.db = db
        self.sender = AppointmentMail.parseSender(mailFrom)
        self.metrics = metrics
    }

    func enqueue(_ facts: InvitationMailFacts, now: Date) async throws {
        let message = InvitationMail.message(facts, sender: sender, now: now)
        try await MailOutboxStore(db: db).enqueue(
            OutgoingMail(
                messageID: message.messageID, kind: .practiceInvitation, appointmentID: nil, icsSequence: nil,
                sender: sender.address, recipient: facts.recipient, rawMessage: message.render()),
            now: now)
        metrics?.counter("mail_messages_queued_total", labels: [("channel", "email")]).increment()
    }
}
