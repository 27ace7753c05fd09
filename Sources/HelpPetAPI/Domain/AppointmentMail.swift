import Foundation
import Mail

/// Everything an appointment email says, as values (no database): who, what, when, where.
package struct AppointmentMailFacts: Sendable {
    package var appointmentID: UUID
    package var title: String
    package var start: Date
    package var durationMinutes: Int
    package var practiceName: String
    package var practiceTimeZone: TimeZone
    package var practiceAddress: String?
    package var practicePhone: String?
    package var practiceEmail: String?
    package var ownerName: String
    package var ownerEmail: String
    package var petNames: [String]
    /// Only for a reschedule: when it was before.
    package var previousStart: Date?
}

/// Writes the owner's appointment emails: confirmation, reschedule and cancellation, each with plain text, HTML and
/// an iCalendar part whose UID is the appointment's (so a calendar updates one event).
package enum AppointmentMail {
    /// `MAIL_FROM`, `Name <address>` or a bare address.
    package static func parseSender(_ text: String) -> MailAddress { MailAddress.parse(text) }

    /// The UID of an appointment's calendar event: stable for its lifetime, unique across practices.
    package static func uid(_ appointmentID: UUID, domain: String) -> String {
        "appointment-\(appointmentID.uuidString.lowercased())@\(domain)"
    }

    package static func message(
        _ kind: MailKind, facts: AppointmentMailFacts, sequence: Int, sender: MailAddress, now: Date
    ) -> MailMessage {
        let from = MailAddress(sender.address, displayName: facts.practiceName)
        let to = MailAddress(facts.ownerEmail, displayName: facts.ownerName)
        let pets = petList(facts.petNames)
        let when = wallTime(facts.start, zone: facts.practiceTimeZone)
        let subject: String
        let lead: String
        switch kind {
        case .appointmentConfirmation:
            subject = "Appointment confirmed: \(pets), \(when)"
            lead = "your appointment for \(pets) at \(facts.practiceName) is booked."
        case .appointmentRescheduled:
            subject = "Appointment moved: \(pets), now \(when)"
            let before = facts.previousStart.map { " (it was \(wallTime($0, zone: facts.practiceTimeZone)))" } ?? ""
            lead = "your appointment for \(pets) at \(facts.practiceName) has a new time\(before)."
        case .appointmentCancelled:
            subject = "Appointment cancelled: \(pets), \(when)"
            lead = "your appointment for \(pets) at \(facts.practiceName) is cancelled."
        // Invitations, discharge and password emails have writers of their own and never reach here; the switch stays exhaustive.
        case .appointmentReminder, .practiceInvitation, .dischargeInstructions, .passwordReset, .passwordChanged:
            subject = "Reminder: \(pets), \(when)"
            lead = "a reminder of your appointment for \(pets) at \(facts.practiceName)."
        }
        var details: [(String, String)] = [("When", "\(when) (\(facts.durationMinutes) minutes)"), ("Visit", facts.title)]
        if let address = facts.practiceAddress, !address.isEmpty { details.append(("Where", address)) }
        if let phone = facts.practicePhone, !phone.isEmpty { details.append(("Phone", phone)) }
        let closing: String
        switch kind {
        case .appointmentCancelled: closing = "If you would like a new appointment, please call the practice."
        case .appointmentReminder: closing = "To change or cancel it, please call the practice."
        default:
            closing = "The attached calendar file adds the appointment to your calendar. To change or cancel it, please call the practice."
        }

        let text = (["Hello \(facts.ownerName),", "", lead.prefix(1).uppercased() + lead.dropFirst(), ""]
            + details.map { "\($0.0): \($0.1)" } + ["", closing, "", facts.practiceName]).joined(separator: "\n")
        let rows = details.map { "<tr><th align=\"left\">\(html($0.0))</th><td>\(html($0.1))</td></tr>" }.joined()
        let htmlBody = """
            <!DOCTYPE html>
            <html><head><meta charset="utf-8"><title>\(html(subject))</title></head>
            <body><p>Hello \(html(facts.ownerName)),</p>
            <p>\(html(lead.prefix(1).uppercased() + lead.dropFirst()))</p>
            <table>\(rows)</table>
            <p>\(html(closing))</p>
            <p>\(html(facts.practiceName))</p></body></html>
            """

        let event = ICalendarEvent(
            method: kind == .appointmentCancelled ? .cancel : .request,
            uid: uid(facts.appointmentID, domain: sender.domain), sequence: sequence, stamp: now, start: facts.start,
            end: facts.start.addingTimeInterval(TimeInterval(facts.durationMinutes * 60)),
            timeZone: facts.practiceTimeZone, summary: "\(facts.title): \(pets)",
            location: [facts.practiceName, facts.practiceAddress].compactMap { $0 }.filter { !$0.isEmpty }
                .joined(separator: ", "),
            description: facts.practicePhone.map { "\(facts.practiceName), phone \($0)" },
            organizer: MailAddress(facts.practiceEmail ?? sender.address, displayName: facts.practiceName),
            attendee: to)
        // A reminder changes nothing in the owner's calendar, so it carries no calendar part.
        return MailMessage(
            from: from, to: [to], subject: subject, text: text, html: htmlBody,
            calendar: kind == .appointmentReminder
                ? nil : CalendarAttachment(method: event.method.rawValue, content: event.render()),
            date: now, messageID: MailMessage.newMessageID(domain: sender.domain))
    }

    /// "Bello", "Bello and Mia", "Bello, Mia and Rex".
    static func petList(_ names: [String]) -> String {
        guard names.count > 1 else { return names.first ?? "your pet" }
        return names.dropLast().joined(separator: ", ") + " and " + names.last!
    }

    /// "Tuesday 1 December 2026, 09:00 (America/Los_Angeles)": the practice's wall time, named zone.
    static func wallTime(_ date: Date, zone: TimeZone) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = "EEEE d MMMM yyyy, HH:mm"
        return "\(formatter.string(from: date)) (\(zone.identifier))"
    }

    static func html(_ text: some StringProtocol) -> String { NoticeMail.html(text) }
}
