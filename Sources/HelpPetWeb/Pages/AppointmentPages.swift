import AppCore
import Foundation
import HelpPetAPI
import Plot
import Vapor
import WebConsole

/// The appointment page (`{mount}/appointments/{id}`): details, notes, reschedule/cancel, and one recorder per pet
/// (`AppointmentRecorderView`, driven by `appointment.js`/`recorder.js`). Reads through `ClinicAppointment`; every
/// change is the page's script calling `/api/v1` (docs/web-console.md, "Recording in the browser").
struct AppointmentPages: Sendable {
    let context: ClinicContext

    func boot(_ routes: any RoutesBuilder) {
        routes.get(ClinicPage.appointment(.key), use: page)
    }

    @Sendable func page(request: Request) async throws -> Response {
        let user = try request.clinicUser
        // Owners and users awaiting approval get the API's answer for an appointment they may not open.
        guard user.isStaff else { throw APIError.notFound("Appointment not found") }
        let id = try PageParts.uuidParameter(request, ClinicPage.Key.appointment, notFound: "Appointment not found")
        let detail = try await ClinicAppointment.detail(request: request, id: id)
        let vets = try await ClinicAppointment.vets(request: request, practiceID: detail.practice.id)
        let deliveries = try await ClinicNotifications.appointmentDeliveries(id, request: request)
        let view = AppointmentView(context: context, detail: detail, vets: vets, deliveries: deliveries)
        return context.render(detail.title, request, scripts: ["appointment.js"], view.render())
    }
}

/// The page's body.
struct AppointmentView {
    let context: ClinicContext
    let detail: ClinicAppointmentDetail
    let vets: [ScheduleVet]
    let deliveries: [MailDeliveryRow]

    private var clock: ConsoleDates { ConsoleDates(zone: detail.practice.timezone) }
    private var id: String { detail.id.uuidString.lowercased() }
    private var apiPath: String { "/api/v1/appointments/\(id)" }
    private var isClosed: Bool { ["completed", "cancelled", "no_show"].contains(detail.status) }

    func render() -> Node<HTML.BodyContext> {
        let end = detail.start.addingTimeInterval(TimeInterval(detail.durationMinutes * 60))
        let day = clock.day(of: detail.start)
        return .div(
            .class("stack appointment-page"),
            .tag("link", .attr("rel", "stylesheet"), .attr("href", context.chrome.assets.url("recorder.css"))),
            .p(.a(.attr("href", context.url(.board, query: ["date": day.description])), .text("← Day board"))),
            .div(
                .class("row"),
                .h1(.safeText(detail.title)),
                .span(.class("badge status-badge"), .attr("data-status", detail.status),
                      .safeText(Labels.status(detail.status)))
            ),
            .tag("dl", [.attr("class", "facts")] + facts([
                ("When", "\(clock.dateTime(detail.start))–\(clock.time(end)) (\(detail.practice.timezone.identifier))"),
                ("Duration", "\(detail.durationMinutes) min"),
                ("Type", Labels.type(detail.type)),
                ("Owner", [detail.ownerName, detail.ownerPhone, detail.ownerEmail].compactMap { $0 }.joined(separator: " · ")),
                ("Vet", detail.vetName ?? "Unassigned"),
                ("Description", detail.description),
            ])),
            statusActions(),
            AppointmentRecorderView(context: context, detail: detail, vets: vets).render(),
            .div(
                .class("grid"),
                notesForm(),
                rescheduleForm()
            ),
            .section(.class("card stack"), .h2("Emails and pushes"),
                     DeliveryLogView(caption: "Emails to the owner and pushes to the vet about this appointment", rows: deliveries, clock: clock).render())
        )
    }

    private func facts(_ pairs: [(String, String?)]) -> [Node<HTML.BodyContext>] {
        pairs.flatMap { label, value -> [Node<HTML.BodyContext>] in
            guard let value, !value.isEmpty else { return [] }
            return [.tag("dt", .safeText(label)), .tag("dd", .safeText(value))]
        }
    }

    /// Start/end the visit and cancel, with the contract's transitions (an illegal one shows the API's message).
    private func statusActions() -> Node<HTML.BodyContext> {
        var buttons: [Node<HTML.BodyContext>] = []
        switch detail.status {
        case "scheduled", "confirmed":
            buttons.append(.button(.class("primary"), .attr("data-api-action", "PUT \(apiPath)"),
                                   .attr("data-body", #"{"status":"in_progress"}"#), .text("Start visit")))
        case "in_progress":
            buttons.append(.button(.attr("data-api-action", "PUT \(apiPath)"),
                                   .attr("data-body", #"{"status":"completed"}"#), .text("End visit")))
        default: break
        }
        if !isClosed {
            buttons.append(.button(
                .class("danger"), .attr("data-api-action", "DELETE \(apiPath)"),
                .attr("data-confirm", "Cancel this appointment? Its recordings are kept."), .text("Cancel appointment")))
        }
        return buttons.isEmpty ? .empty : .div(.class("row"), .group(buttons))
    }

    private func notesForm() -> Node<HTML.BodyContext> {
        .section(
            .class("card"), .attr("aria-labelledby", "notes-title"),
            .h2(.id("notes-title"), .text("Notes")),
            .tag("form", [
                .attr("data-api", "PUT \(apiPath)"), .attr("data-done", "Notes saved"), .attr("class", "stack"),
                .attr("data-shape", "appointmentNotes"), .attr("novalidate", "novalidate"),
                ConsoleForms.formError(),
                ConsoleForms.textArea("Notes", name: "notes", value: detail.notes ?? "", rows: 4,
                                      extra: [.attr("data-null-when-empty", "")]),
                .button(.type(.submit), .class("primary"), .text("Save notes")),
            ])
        )
    }

    /// Date and time are the practice's wall time; `appointment.js` turns them into an instant in the practice's
    /// zone (not the browser's) before the PUT.
    private func rescheduleForm() -> Node<HTML.BodyContext> {
        let local = ConsoleDates(zone: detail.practice.timezone).localInput(detail.start)
        return .section(
            .class("card"), .attr("aria-labelledby", "reschedule-title"),
            .h2(.id("reschedule-title"), .text("Reschedule")),
            .tag("form", [
                .attr("data-api", "PUT \(apiPath)"), .attr("data-done", "Appointment updated"), .attr("class", "stack"),
                .attr("data-shape", "appointmentReschedule"), .attr("novalidate", "novalidate"),
                .attr("id", "reschedule-form"), .attr("data-zone", detail.practice.timezone.identifier),
                ConsoleForms.formError(),
                ConsoleForms.field("Start (\(detail.practice.timezone.identifier))", name: "appointment_date",
                                   value: local, type: "datetime-local", required: true,
                                   extra: [.attr("data-local-zone", detail.practice.timezone.identifier)]),
                ConsoleForms.field("Duration (minutes)", name: "duration_minutes", value: String(detail.durationMinutes),
                                   type: "number", extra: [.attr("data-type", "integer"), .attr("min", "5"),
                                                           .attr("max", "480")]),
                ConsoleForms.select(
                    "Vet", name: "assigned_vet_user_id",
                    options: [("", "Unassigned")] + vets.map { ($0.id.uuidString.lowercased(), $0.name) },
                    selected: detail.vetID?.uuidString.lowercased() ?? "",
                    extra: [.attr("data-null-when-empty", "")]),
                .button(.type(.submit), .class("primary"), .text("Save")),
            ])
        )
    }
}
