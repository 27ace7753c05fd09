import AppCore
import Fluent
import Foundation
import Mail
import MailOutbox

/// Enqueues the owner's appointment emails inside the caller's write transaction, so an appointment change and its
/// email commit together or not at all. Owners who switched notifications off, prefer another channel or have no
/// usable address get none; a practice that switched its appointment emails off sends none (its reminders follow
/// their own setting, the lead time, where 0 sends none).
package struct AppointmentEmails: Sendable {
    package let db: any Database
    /// `MAIL_FROM`.
    package let sender: MailAddress
    let metrics: MetricsRegistry?

    package init(db: any Database, mailFrom: String, metrics: MetricsRegistry? = nil) {
        self.db = db
        self.sender = AppointmentMail.parseSender(mailFrom)
        self.metrics = metrics
    }

    /// Returns whether a message was enqueued.
    @discardableResult
    package func enqueue(_ kind: MailKind, appointment: Appointment, previousStart: Date? = nil, now: Date) async throws -> Bool {
        if kind != .appointmentReminder, let id = appointment.id {
            // A queued reminder of the old time (or of a cancelled appointment) must not go out.
            try await MailOutboxStore(db: db).withdrawReminders(
                ofAppointment: id, reason: "not sent: the appointment was \(kind == .appointmentCancelled ? "cancelled" : "moved")",
                now: now)
        }
        guard let appointmentID = appointment.id,
            let owner = try await PetOwner.find(appointment.petOwnerID, on: db),
            Self.wantsEmail(owner),
            let practice = try await Practice.find(appointment.practiceID, on: db),
            kind == .appointmentReminder || practice.appointmentEmailsEnabled
        else { return false }
        let links = try await AppointmentPet.query(on: db).filter(\.$id.$appointmentID == appointmentID)
            .sort(\.$position).all()
        let petIDs = links.map(\.id!.petID)
        let pets = try await Pet.query(on: db).filter(\.$id ~~ petIDs).all()
        let names = Dictionary(uniqueKeysWithValues: pets.map { ($0.id!, $0.name) })
        let facts = AppointmentMailFacts(
            appointmentID: appointmentID, title: appointment.title, start: appointment.appointmentDate,
            durationMinutes: appointment.durationMinutes, practiceName: practice.name,
            practiceTimeZone: practice.timeZone, practiceAddress: practice.address, practicePhone: practice.phone,
            practiceEmail: practice.email.flatMap { MailAddress.isPlausible($0) ? $0 : nil },
            ownerName: owner.fullName, ownerEmail: owner.email, petNames: petIDs.compactMap { names[$0] },
            previousStart: previousStart)
        let outbox = MailOutboxStore(db: db)
        let isReminder = kind == .appointmentReminder
        let sequence = try await outbox.nextSequence(forAppointment: appointmentID)
        let message = AppointmentMail.message(kind, facts: facts, sequence: sequence, sender: sender, now: now)
        return try await outbox.enqueue(
            OutgoingMail(
                messageID: message.messageID, kind: kind.rawValue, appointmentID: appointmentID,
                icsSequence: isReminder ? nil : sequence, sender: sender.address, recipient: owner.email,
                rawMessage: message.render(), reminderFor: isReminder ? appointment.appointmentDate : nil,
                sendBefore: isReminder ? appointment.appointmentDate : nil),
            now: now, counting: metrics)
    }

    /// The owner's own choices (mirroring the original app's owner model): notifications on, and email as the
    /// preferred channel or no preference; and an address that can receive mail.
    static func wantsEmail(_ owner: PetOwner) -> Bool {
        guard owner.notificationsEnabled else { return false }
        if let channel = owner.preferredCommunication, channel != "email" { return false }
        return MailAddress.isPlausible(owner.email)
    }
}
