import AppCore
import Foundation
import HelpPetAPI
import Plot
import Vapor
import WebConsole

/// The ADMIN's pages: users (create, role, practice, deactivate, reset password) and practices (create, edit).
struct AdminPages: Sendable {
    let context: ClinicContext

    func boot(_ routes: any RoutesBuilder) {
        routes.get(ClinicPage.adminUsers, use: users)
        routes.get(ClinicPage.adminUser(.key), use: user)
        routes.get(ClinicPage.adminPractices, use: practices)
    }

    static let roles: [(String, String)] = [
        (UserRole.vetStaff.rawValue, "Vet staff"), (UserRole.vet.rawValue, "Vet"),
        (UserRole.admin.rawValue, "Administrator"), (UserRole.petOwner.rawValue, "Pet owner"),
    ]

    @Sendable func users(request: Request) async throws -> Response {
        let users = try await ClinicAdmin.users(request: request)
        let practices = try await ClinicAdmin.practices(request: request)
        let owners = try await ClinicAdmin.unlinkedOwners(request: request)
        let practiceName = Dictionary(uniqueKeysWithValues: practices.map { ($0.id, $0.name) })
        return context.render("Users", request, .div(
            .class("stack"),
            tabs(current: "users"),
            .h1("Users"),
            .div(.class("table-wrap"), .table(
                .thead(.tr(.th("Username"), .th("Name"), .th("Role"), .th("Practice"), .th("Status"))),
                .tbody(.forEach(users) { user in
                    .tr(
                        .td(.a(.attr("href", context.url(.adminUser(.value(user.id)))), .safeText(user.username))),
                        .td(.safeText(user.fullName)),
                        .td(.safeText(ClinicSessionMiddleware.roleLabel(user.role))),
                        .td(.safeText(user.practiceID.flatMap { practiceName[$0] } ?? "—")),
                        .td(.span(.class(user.isActive ? "badge ok" : "badge bad"), .text(user.isActive ? "Active" : "Deactivated")))
                    )
                })
            )),
            .section(.class("card stack narrow"), .h2("New user"),
                PageParts.apiForm("POST", "/api/v1/users", then: context.url(.adminUser(.placeholder)), [
                    ConsoleForms.field("Username", name: "username", required: true),
                    ConsoleForms.field("Full name", name: "full_name", required: true),
                    ConsoleForms.field("Email", name: "email", type: "email", required: true),
                    ConsoleForms.field("Password", name: "password", type: "password", required: true,
                                       hint: "8 to 72 bytes", extra: [.attr("autocomplete", "new-password")]),
                    ConsoleForms.select("Role", name: "role", options: Self.roles, selected: UserRole.vetStaff.rawValue),
                    ConsoleForms.select("Practice", name: "practice_id",
                                        options: [("", "— none (administrators, owners) —")]
                                            + practices.map { (PageParts.lower($0.id), $0.name) }, selected: nil),
                    ConsoleForms.select("Pet owner record", name: "pet_owner_id",
                                        options: [("", "— only for pet owners —")]
                                            + owners.map { (PageParts.lower($0.id), $0.name) }, selected: nil),
                ], submit: "Create user"))
        ))
    }

    @Sendable func user(request: Request) async throws -> Response {
        let id = try PageParts.uuidParameter(request, ClinicPage.Key.user, notFound: "User not found")
        guard let user = try await ClinicAdmin.users(request: request).first(where: { $0.id == id }) else {
            throw APIError.notFound("User not found")
        }
        let practices = try await ClinicAdmin.practices(request: request)
        let path = "/api/v1/users/\(PageParts.lower(id))"
        return context.render(user.username, request, .div(
            .class("stack"),
            tabs(current: "users"),
            .h1(.safeText("\(user.fullName) (\(user.username))")),
            .div(.class("grid"),
                .section(.class("card stack"), .h2("Profile and role"),
                    PageParts.apiForm("PUT", path, done: "User saved", [
                        ConsoleForms.field("Full name", name: "full_name", value: user.fullName, required: true),
                        ConsoleForms.field("Email", name: "email", value: user.email, type: "email", required: true),
                        ConsoleForms.select("Role", name: "role", options: Self.roles, selected: user.role.rawValue),
                        ConsoleForms.select("Practice", name: "practice_id",
                                            options: [("", "— none —")] + practices.map { (PageParts.lower($0.id), $0.name) },
                                            selected: user.practiceID.map(PageParts.lower),
                                            extra: [.attr("data-null-when-empty", "")]),
                    ], submit: "Save")),
                .section(.class("card stack"), .h2("Password"),
                    PageParts.apiForm("PUT", path, done: "Password reset; the user's sessions have ended", [
                        ConsoleForms.field("New password", name: "password", type: "password", required: true,
                                           hint: "8 to 72 bytes", extra: [.attr("autocomplete", "new-password")]),
                    ], submit: "Reset password")),
                .section(.class("card stack"), .h2("Access"),
                    .p(.safeText(user.isActive ? "This account can sign in." : "This account is deactivated.")),
                    .button(.class(user.isActive ? "danger" : "primary"), .attr("data-api-action", "PUT \(path)"),
                            .attr("data-body", user.isActive ? #"{"is_active":false}"# : #"{"is_active":true}"#),
                            .attr("data-confirm", user.isActive ? "Deactivate \(user.username)? Their sessions end at once." : "Reactivate \(user.username)?"),
                            .text(user.isActive ? "Deactivate" : "Reactivate")))
            )
        ))
    }

    @Sendable func practices(request: Request) async throws -> Response {
        let practices = try await ClinicAdmin.practices(request: request)
        let selfService = try ClinicAdmin.selfServicePracticesEnabled(request: request)
        let notifications = try ClinicNotifications.status(request: request)
        var deliveries: [UUID: [MailDeliveryRow]] = [:]
        for practice in practices {
            deliveries[practice.id] = try await ClinicNotifications.practiceDeliveries(practice.id, request: request)
        }
        return context.render("Practices", request, .div(
            .class("stack"),
            tabs(current: "practices"),
            .h1("Practices"),
            selfServiceSetting(enabled: selfService),
            notificationSetting(notifications),
            .forEach(practices) { practice in
                .tag("details", .class("card"),
                    .tag("summary", .safeText("\(practice.name) · \(practice.timezone)\(practice.isActive ? "" : " · inactive")")),
                    .p(.a(.attr("href", context.url(.practiceInvites(practice: .value(practice.id)))),
                          .safeText("Invitations of \(practice.name)"))),
                    PageParts.apiForm("PUT", "/api/v1/practices/\(PageParts.lower(practice.id))", done: "Practice saved",
                                      practiceFields(practice), submit: "Save practice"),
                    DeliveryLogView(caption: "Latest emails and pushes about \(practice.name)'s appointments",
                                    rows: deliveries[practice.id] ?? [],
                                    clock: ConsoleDates(zone: TimeZone.stored(practice.timezone))).render())
            },
            .section(.class("card stack narrow"), .h2("New practice"),
                     PageParts.apiForm("POST", "/api/v1/practices", then: context.url(.adminPractices),
                                       practiceFields(nil), submit: "Create practice"))
        ))
    }

    /// Where email and pushes go: server settings read at start-up, so the page says how to change them.
    private func notificationSetting(_ status: ConsoleNotificationStatus) -> Node<HTML.BodyContext> {
        .section(.class("card stack"), .id("notification-delivery"),
            .h2("Email and push"),
            .p(.span(.class(status.emailAsFiles ? "badge warn" : "badge ok"), .text(status.emailAsFiles ? "Files" : "SMTP")),
               .safeText(status.emailAsFiles
                   ? " Email is written as .eml files (\(status.emailDestination)), not sent. Set SMTP_URL and MAIL_FROM to send it."
                   : " Email goes to \(status.emailDestination).")),
            .p(.attr("data-role", "push-status"),
               .span(.class(status.pushDestination == nil ? "badge warn" : "badge ok"),
                     .text(status.pushDestination == nil ? "Off" : "On")),
               .safeText(status.pushDestination.map { " Pushes to the vets' iPhones go to \($0)." }
                   ?? " Push to the vets' iPhones is off: set APNS_KEY_PATH, APNS_KEY_ID, APNS_TEAM_ID and APNS_TOPIC (docs/notifications.md) and restart the server. Until then, pushes wait in the outbox."))
        )
    }

    /// A server setting, not a form: it is read from the environment at start-up, so the page says how to change it.
    private func selfServiceSetting(enabled: Bool) -> Node<HTML.BodyContext> {
        .section(.class("card stack"), .id("self-service-practices"),
            .h2("Self-service practices"),
            .p(.span(.class(enabled ? "badge ok" : "badge"), .text(enabled ? "On" : "Off")),
               .text(enabled
                   ? " A user who signed up in the app without a practice may create one and becomes its administrator."
                   : " A user who signed up in the app cannot create a practice: the app's \u{201C}create your practice\u{201D} is refused. An administrator creates practices here and admits users to them.")),
            .p(.class("muted"),
               .text("To change it, set "), .code(.text(enabled ? "HELPPET_SELF_SERVICE_PRACTICES=false" : "HELPPET_SELF_SERVICE_PRACTICES=true")),
               .text(" in the server's environment (with systemd: /etc/helppet/helppet.env, see deploy/systemd/helppet.env.example) and restart the server."))
        )
    }

    private func practiceFields(_ practice: ConsolePracticeRow?) -> [Node<HTML.BodyContext>] {
        let clearable: [Attribute<Any>] = practice == nil ? [] : [.attr("data-null-when-empty", "")]
        return [
            ConsoleForms.field("Name", name: "name", value: practice?.name ?? "", required: true),
            ConsoleForms.field("Time zone", name: "timezone", value: practice?.timezone ?? "", required: true,
                               hint: "A tz database name, for example America/Los_Angeles"),
            ConsoleForms.field("Phone", name: "phone", value: practice?.phone ?? "", type: "tel", extra: clearable),
            ConsoleForms.field("Email", name: "email", value: practice?.email ?? "", type: "email", extra: clearable),
            ConsoleForms.textArea("Address", name: "address", value: practice?.address ?? "", rows: 2, extra: clearable),
            ConsoleForms.select("Status", name: "is_active", options: [("true", "Active"), ("false", "Inactive")],
                                selected: (practice?.isActive ?? true) ? "true" : "false",
                                extra: [.attr("data-type", "boolean")]),
            ConsoleForms.select("Owner's agreement to recording", name: "recording_consent_required",
                                options: [("false", "Optional (the vet may confirm it)"),
                                          ("true", "Required before the first recording")],
                                selected: (practice?.recordingConsentRequired ?? false) ? "true" : "false",
                                extra: [.attr("data-type", "boolean")]),
            ConsoleForms.select("Appointment emails to the owner", name: "appointment_emails_enabled",
                                options: [("true", "Sent: confirmation, new time, cancellation"), ("false", "Not sent")],
                                selected: (practice?.appointmentEmailsEnabled ?? true) ? "true" : "false",
                                extra: [.attr("data-type", "boolean")]),
            ConsoleForms.field("Reminder email, hours before the appointment", name: "appointment_reminder_hours",
                               value: String(practice?.appointmentReminderHours ?? 24), type: "number",
                               hint: "0 sends no reminder; at most 168 (one week)",
                               extra: [.attr("data-type", "integer"), .attr("min", "0"), .attr("max", "168"),
                                       .attr("step", "1")]),
            ConsoleForms.select("Discharge instructions by email", name: "discharge_emails_enabled",
                                options: [("false", "Not sent (the owner reads them in the app)"),
                                          ("true", "Sent to the owner when a note is approved")],
                                selected: (practice?.dischargeEmailsEnabled ?? false) ? "true" : "false",
                                extra: [.attr("data-type", "boolean")]),
        ]
    }

    private func tabs(current: String) -> Node<HTML.BodyContext> {
        .nav(.class("row tabs"), .attr("aria-label", "Administration"),
             .a(.attr("href", context.url(.adminUsers)), current == "users" ? .attr("aria-current", "page") : .empty, .text("Users")),
             .a(.attr("href", context.url(.adminPractices)), current == "practices" ? .attr("aria-current", "page") : .empty,
                .text("Practices")))
    }
}
