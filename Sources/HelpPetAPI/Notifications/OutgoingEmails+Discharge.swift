import AppCore
import Fluent
import Foundation
import Mail
import MailOutbox

extension OutgoingEmails {
    /// The discharge instructions to the pet's owner, queued in the transaction that approves the note (`visit` is
    /// the row as approved). Only when the practice sends them (`discharge_emails_enabled`) and the owner wants
    /// email (the same rule as the appointment emails). Returns whether a message was queued.
    @discardableResult
    func enqueueDischargeInstructions(approved visit: Visit, now: Date) async throws -> Bool {
        guard let practice = try await Practice.find(visit.practiceID, on: db), practice.dischargeEmailsEnabled,
            let pet = try await Pet.find(visit.petID, on: db),
            let owner = try await PetOwner.find(pet.ownerID, on: db), AppointmentEmails.wantsEmail(owner)
        else { return false }
        let addenda = try await VisitAddendumStore(db: db).list(visit: visit.id!).map(\.text)
        let instructions = DischargeInstructions(approved: visit, petName: pet.name, practice: practice, addenda: addenda)
        let message = DischargeMail.message(
            instructions, to: MailAddress(owner.email, displayName: owner.fullName), sender: sender, now: now)
        return try await enqueue(
            OutgoingMail(
                messageID: message.messageID, kind: MailKind.dischargeInstructions.rawValue, appointmentID: visit.appointmentID,
                icsSequence: nil, sender: sender.address, recipient: owner.email, rawMessage: message.render()),
            now: now)
    }
}
