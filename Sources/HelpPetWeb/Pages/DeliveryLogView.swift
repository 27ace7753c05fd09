import Foundation
import HelpPetAPI
import Plot
import WebConsole

/// The delivery log: each email to the owner and each push to a vet's phones about an appointment, whether it is
/// queued, sent, failed or not sent, and why (docs/notifications.md, "Delivery log").
struct DeliveryLogView {
    let caption: String
    let rows: [MailDeliveryRow]
    let clock: ConsoleDates

    func render() -> Node<HTML.BodyContext> {
        guard !rows.isEmpty else {
            return .p(.class("muted"), .attr("data-role", "delivery-log-empty"), .safeText("\(caption): none yet."))
        }
        return .div(.class("table-wrap"), .table(
            .attr("data-role", "delivery-log"),
            .caption(.safeText(caption)),
            .thead(.tr(
                .th(.attr("scope", "col"), "Message"), .th(.attr("scope", "col"), "To"),
                .th(.attr("scope", "col"), "Status"), .th(.attr("scope", "col"), "Tries"),
                .th(.attr("scope", "col"), "Queued"), .th(.attr("scope", "col"), "Sent")
            )),
            .tbody(.forEach(rows) { row in
                .tr(
                    .attr("data-kind", row.kind), .attr("data-status", row.status), .attr("data-channel", row.channel),
                    .td(.safeText(Self.label(row))),
                    .td(.safeText(row.channel == "push" ? "\(row.recipient)'s phones" : row.recipient)),
                    .td(.span(.class("badge \(Self.tone(row.status))"), .safeText(Self.statusText(row)))),
                    .td(.text(String(row.attempts))),
                    .td(.safeText(clock.dateTime(row.createdAt))),
                    .td(.safeText(row.sentAt.map(clock.dateTime) ?? "—"))
                )
            })
        ))
    }

    /// "Confirmation" for an email, "Push: New appointment" for a push.
    static func label(_ row: MailDeliveryRow) -> String {
        guard row.channel == "push" else { return kindLabel(row.kind) }
        switch row.kind {
        case "appointment_booked": return "Push: New appointment"
        case "note_ready": return "Push: Note ready to review"
        case "appointment_reminder": return "Push: Coming up"
        default: return "Push: \(row.kind)"
        }
    }

    static func kindLabel(_ kind: String) -> String {
        switch kind {
        case "appointment_confirmation": "Confirmation"
        case "appointment_rescheduled": "New time"
        case "appointment_cancelled": "Cancellation"
        case "appointment_reminder": "Reminder"
        case "practice_invitation": "Invitation"
        case "discharge_instructions": "Discharge instructions"
        case "password_reset": "Password reset link"
        case "password_changed": "Password changed"
        default: kind
        }
    }

    /// Sent; failed with the reason the server gave; queued, with the last error while it is being retried.
    static func statusText(_ row: MailDeliveryRow) -> String {
        switch row.status {
        case "sent": return "Sent"
        case "failed": return "Failed: " + (row.lastError ?? "no reason recorded")
        case "sending": return "Sending"
        case "skipped": return "Not sent: " + (row.lastError ?? "no reason recorded")
        default: return row.lastError.map { "Queued, retrying after: \($0)" } ?? "Queued"
        }
    }

    static func tone(_ status: String) -> String {
        switch status {
        case "sent": "ok"
        case "failed": "bad"
        default: "warn"
        }
    }
}
