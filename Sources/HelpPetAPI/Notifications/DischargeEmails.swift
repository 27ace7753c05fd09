import AppCore
import Fluent
import Foundation
import Mail

/// Enqueues the discharge instructions to the pet's owner in the transaction that approves the note, so the approval
/// and its email commit together. Only when the practice sends them (`discharge_emails_enabled`) and the owner wants
/// email (the same rule as the appointment emails).
struct DischargeEmails: Sendable {
    let db: any Database
    let sender: MailAddress
    let metrics: MetricsRegistry?

    init(db: any Database, mailFrom: String, metrics: MetricsRegistry?) {
        self.db = db
        self.sender = AppointmentMail.parseSender(mailFrom)
        self.metrics = metrics
    }

    /// Returns whether a message was enqueued. `visit` is the row as approved.
    @discardableResult
    func enqueue(approved visit: Visit, now: Date) async throws -> Bool {
        guard let practice = try await Practice.find(visit.practiceID, on: db), practice.dischargeEmailsEnabled,
            let pet = try await Pet.find(visit.petID, on: db),
            let owner = try await PetOwner.find(pet.ownerID, on: db), AppointmentEmails.wantsEmail(owner)
        else { return false }
        let addenda = try await VisitAddendumStore.list(visit: visit.id!, on: db).map(\.text)
        let instructions = DischargeInstructions(approved: visit, petName: pet.name, practice: practice, addenda: addenda)
        let message = DischargeMail.message(
            instructions, to: MailAddress(owner.email, displayName: owner.fullName), sender: sender, now: now)
        let inserted = try await MailOutboxStore(db: db).enqueue(
            OutgoingMail(
                messageID: message.messageID, kind: .dischargeInstructions, appointmentID: visit.appointmentID,
                icsSequence: nil, sender: sender.address, recipient: owner.email, rawMessage: message.render()),
            now: now)
        if inserted { metrics?.counter("mail_messages_queued_total", labels: [("channel", "email")]).increment() }
        return inserted
    }
}
