import Foundation
import Mail

/// Writes the discharge email: the owner's discharge instructions word for word (`DischargeInstructions.text`, the
/// same text as the owner's page and its print), as plain text and as HTML, no attachment.
enum DischargeMail {
    static func message(
        _ instructions: DischargeInstructions, to recipient: MailAddress, sender: MailAddress, now: Date
    ) -> MailMessage {
        let from = MailAddress(sender.address, displayName: instructions.practiceName)
        let subject = "Discharge instructions for \(instructions.petName) from \(instructions.practiceName)"
        let text = instructions.text
        // One paragraph per block of the text; indented lines become the block's list items.
        let blocks = text.components(separatedBy: "\n\n").map { block -> String in
            let lines = block.split(separator: "\n", omittingEmptySubsequences: true)
            guard let head = lines.first else { return "" }
            let items = lines.dropFirst().map { "<li>\(AppointmentMail.html($0.trimmingCharacters(in: .whitespaces)))</li>" }
            return items.isEmpty
                ? "<p>\(AppointmentMail.html(head))</p>"
                : "<p>\(AppointmentMail.html(head))</p><ul>\(items.joined())</ul>"
        }
        let html = """
            <!DOCTYPE html>
            <html><head><meta charset="utf-8"><title>\(AppointmentMail.html(subject))</title></head>
            <body>\(blocks.joined(separator: "\n"))</body></html>
            """
        return MailMessage(
            from: from, to: [recipient], subject: subject, text: text, html: html, date: now,
            messageID: MailMessage.newMessageID(domain: sender.domain))
    }
}
