import Foundation
import HelpPetAPI
import Plot

/// The delivery log: each email about an appointment, whether it is queued, sent or failed, and why it failed
/// (docs/notifications.md, "Delivery log").
struct DeliveryLogView {
    let caption: String
    let rows: [MailDeliveryRow]
    let clock: PracticeClock

    func render() -> Node<HTML.BodyContext> {
        guard !rows.isEmpty else {
            return .p(.class("muted"), .attr("data-role", "delivery-log-empty"), .safeText("\(caption): none yet."))
        }
        return .div(.class("table-wrap"), .table(
            .attr("data-role", "delivery-log"),
            .caption(.safeText(caption)),
            .thead(.tr(
                .th(.attr("scope", "col"), "Email"), .th(.attr("scope", "col"), "To"),
                .th(.attr("scope", "col"), "Status"), .th(.attr("scope", "col"), "Tries"),
                .th(.attr("scope", "col"), "Queued"), .th(.attr("scope", "col"), "Sent")
            )),
            .tbody(.forEach(rows) { row in
                .tr(
                    .attr("data-kind", row.kind), .attr("data-status", row.status),
                    .td(.safeText(Self.kindLabel(row.kind))),
                    .td(.safeText(row.recipient)),
                    .td(.span(.class("badge \(Self.tone(row.status))"), .safeText(Self.statusText(row)))),
                    .td(.text(String(row.attempts))),
                    .td(.safeText(clock.dateTime(row.createdAt))),
                    .td(.safeText(row.sentAt.map(clock.dateTime) ?? "—"))
                )
            })
        ))
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
