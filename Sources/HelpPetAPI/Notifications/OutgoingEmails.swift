import AppCore
import Fluent
import Foundation
import Mail
import MailOutbox

/// Puts rendered emails into `mail_outbox` inside the caller's transaction, so a change and its email commit together
/// or not at all, and counts each one queued. The messages themselves are written by the `…Mail` types of Domain.
struct OutgoingEmails: Sendable {
    let db: any Database
    /// `MAIL_FROM`.
    let sender: MailAddress
    let metrics: MetricsRegistry?

    init(db: any Database, mailFrom: String, metrics: MetricsRegistry?) {
        self.db = db
        self.sender = AppointmentMail.parseSender(mailFrom)
        self.metrics = metrics
    }

    /// Returns whether the message was queued (a unique index may refuse a second one).
    @discardableResult
    func enqueue(_ mail: OutgoingMail, now: Date) async throws -> Bool {
        try await MailOutboxStore(db: db).enqueue(mail, now: now, counting: metrics)
    }
}
