import AppCore
import AutoDetailAPI
import Foundation
import Plot
import Vapor
import WebConsole

/// Services: the list (active and inactive), create and edit. The forms post to `/api/admin/services`, whose
/// validation messages appear next to their fields.
struct ServicePages: Sendable {
    let context: StudioContext

    func boot(_ routes: any RoutesBuilder) {
        routes.get(StudioPage.services, use: list)
        routes.get(StudioPage.newService, use: create)
        routes.get(StudioPage.service(.key), use: edit)
    }

    @Sendable func list(request: Request) async throws -> Response {
        let services = try await StudioReads.services(request)
        return context.render("Services", request, .div(
            .class("stack"),
            .div(.class("head"), .h1("Services"),
                 .a(.class("button primary"), .attr("href", context.url(.newService)), .text("New service"))),
            services.isEmpty ? .p(.class("muted"), .text("No services yet.")) : .div(.class("table-wrap"), .table(
                .id("services"),
                .thead(.tr(.th("Name"), .th("Price"), .th("Duration"), .th("Status"))),
                .tbody(.forEach(services) { s in
                    .tr(
                        .td(.a(.attr("href", context.url(.service(.value(s.id)))), .safeText(s.name)),
                            s.description.isEmpty ? .empty : .div(.class("muted"), .safeText(String(s.description.prefix(120))))),
                        .td(.class("num"), .safeText(StudioFormat.rub(s.priceRub))),
                        .td(.safeText(StudioFormat.minutes(s.durationMinutes))),
                        .td(s.active ? .span(.class("badge ok"), .text("Offered")) : .span(.class("badge"), .text("Inactive")))
                    )
                })
            ))
        ))
    }

    @Sendable func create(request: Request) async throws -> Response {
        context.render("New service", request, .div(
            .class("stack"),
            .p(.a(.attr("href", context.url(.services)), .text("← Services"))),
            .h1("New service"),
            form(nil)
        ))
    }

    @Sendable func edit(request: Request) async throws -> Response {
        guard let id = request.parameters.get(StudioPage.Key.id).flatMap(UUID.init(uuidString:)),
            let service = try await StudioReads.service(id, request)
        else { throw APIError.notFound("Service not found") }
        return context.render(service.name, request, .div(
            .class("stack"),
            .p(.a(.attr("href", context.url(.services)), .text("← Services"))),
            .h1(.safeText(service.name)),
            form(service)
        ))
    }

    private func form(_ s: StudioService?) -> Node<HTML.BodyContext> {
        let api = s.map { "PUT /api/admin/services/\($0.id.uuidString.lowercased())" } ?? "POST /api/admin/services"
        return .tag("form", .attr("class", "card"), .attr("id", "service-form"), .attr("data-api", api),
            .attr("data-then", context.url(.services)),
            ConsoleForms.field("Name", name: "name", value: s?.name ?? "", required: true, hint: "2–100 characters.",
                               extra: [.attr("maxlength", "100")]),
            ConsoleForms.textArea("Description", name: "description", value: s?.description ?? "", rows: 3,
                                  extra: [.attr("maxlength", "2000")]),
            ConsoleForms.field("Price (₽)", name: "priceRub", value: s.map { String($0.priceRub) } ?? "", type: "number",
                               required: true, hint: "Whole roubles, 0–10 000 000.",
                               extra: [.attr("data-type", "integer"), .attr("min", "0")]),
            ConsoleForms.field("Duration (minutes)", name: "durationMinutes", value: s.map { String($0.durationMinutes) } ?? "",
                               type: "number", required: true,
                               hint: "15–720, a multiple of 5. This is the length of each booking's slot.",
                               extra: [.attr("data-type", "integer")]),
            ConsoleForms.field("Image URL", name: "imageUrl", value: s?.imageUrl ?? "", type: "url",
                               hint: "Optional, an http(s) address.", extra: [.attr("data-null-when-empty", "")]),
            .tag("div", .attr("class", "field checkbox"),
                .tag("label",
                    .void("input", [.attr("type", "checkbox"), .attr("name", "active"), .attr("id", "field-active")]
                        + ((s?.active ?? true) ? [.flag("checked")] : [])),
                    .text(" Offered to clients (inactive services cannot be booked)")),
                ConsoleForms.errorSlot("active")),
            ConsoleForms.formError(),
            .button(.type(.submit), .class("primary"), .text(s == nil ? "Create service" : "Save service"))
        )
    }
}
