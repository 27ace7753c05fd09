import AppCore
import Foundation
import HelpPetAPI
import Plot
import Vapor
import WebConsole

/// The ADMIN's invitation page of one practice: invite by email (the API sends the email with the code), the pending
/// invitations, and revoke. One form per page, so every field id is unique.
struct InvitePages: Sendable {
    let context: ClinicContext

    func boot(_ routes: any RoutesBuilder) {
        routes.get(ClinicPage.practiceInvites(practice: .key), use: invites)
    }

    @Sendable func invites(request: Request) async throws -> Response {
        let id = try PageParts.uuidParameter(request, ClinicPage.Key.practice, notFound: "Practice not found")
        guard let practice = try await ClinicAdmin.practices(request: request).first(where: { $0.id == id }) else {
            throw APIError.notFound("Practice not found")
        }
        let pending = try await ClinicInvites.pending(practiceID: id, request: request)
        let path = "/api/v1/practices/\(PageParts.lower(id))/invites"
        let dates = ConsoleDates(timezone: practice.timezone)
        let table: Node<HTML.BodyContext> = .div(.class("table-wrap"), .table(
                        .thead(.tr(.th(.attr("scope", "col"), .text("Email")), .th(.attr("scope", "col"), .text("Sent")),
                                   .th(.attr("scope", "col"), .text("Expires")), .th(.attr("scope", "col"), .text("Action")))),
                        .tbody(.forEach(pending) { invite in
                            .tr(
                                .td(.safeText(invite.email)),
                                .td(.safeText(dates.dateTime(invite.createdAt))),
                                .td(.safeText(dates.dateTime(invite.expiresAt))),
                                .td(.button(.class("danger"),
                                            .attr("data-api-action", "DELETE \(path)/\(PageParts.lower(invite.id))"),
                                            .attr("data-confirm", "Revoke the invitation of \(invite.email)?"),
                                            .attr("aria-label", "Revoke the invitation of \(invite.email)"),
                                            .text("Revoke")))
                            )
                        })
                    ))
        let list: Node<HTML.BodyContext> = pending.isEmpty
            ? .p(.class("muted"), .text("No pending invitations.")) : table
        return context.render("Invitations: \(practice.name)", request, .div(
            .class("stack"),
            .nav(.class("row tabs"), .attr("aria-label", "Administration"),
                 .a(.attr("href", context.url(.adminUsers)), .text("Users")),
                 .a(.attr("href", context.url(.adminPractices)), .attr("aria-current", "page"), .text("Practices"))),
            .h1(.safeText("Invitations: \(practice.name)")),
            .section(.class("card stack narrow"), .attr("aria-labelledby", "invite-heading"),
                .h2(.id("invite-heading"), .text("Invite by email")),
                .p(.class("muted"), .text(
                    "The invited person gets an email with a code; after signing up with that address they join this practice as vet staff.")),
                PageParts.apiForm("POST", path, then: context.url(.practiceInvites(practice: .value(id))), [
                    ConsoleForms.field("Email", name: "email", type: "email", required: true,
                                       extra: [.attr("autocomplete", "off")]),
                    ConsoleForms.field("Valid for (days)", name: "expiration_days", value: "7", type: "number",
                                       hint: "1 to 30 days", extra: [.attr("min", "1"), .attr("max", "30"),
                                                                      .attr("data-type", "integer")]),
                ], submit: "Send invitation")),
            .section(.class("stack"), .attr("aria-labelledby", "pending-heading"),
                .h2(.id("pending-heading"), .text("Pending invitations")),
                list
            )
        ))
    }
}
