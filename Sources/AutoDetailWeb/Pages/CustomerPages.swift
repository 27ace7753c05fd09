import AppCore
import AutoDetailAPI
import Foundation
import Plot
import Vapor
import WebConsole

/// Customers: the iPhone app's installations (§4.7.5) — list, profile with bookings and messages, send a message,
/// revoke the install (its key stops working; its bookings stay).
struct CustomerPages: Sendable {
    let context: StudioContext

    func boot(_ routes: any RoutesBuilder) {
        routes.get(StudioPage.customers, use: list)
        routes.get(StudioPage.customer(.key), use: detail)
    }

    @Sendable func list(request: Request) async throws -> Response {
        let settings = try await StudioReads.settings(request)
        let format = ConsoleDates(timezone: settings.timezone)
        let search = request.query[String.self, at: "search"].map { $0.trimmingCharacters(in: .whitespaces) }
            .flatMap { $0.isEmpty ? nil : String($0.prefix(100)) }
        let (customers, total) = try await StudioReads.customers(search: search, request)
        return context.render("Customers", request, .div(
            .class("stack"),
            .h1("Customers (iPhone app)"),
            .form(.class("filters card"), .attr("method", "get"), .attr("action", context.url(.customers)),
                  ConsoleForms.field("Search", name: "search", value: search ?? "", type: "search",
                                     hint: "Name, plate, phone or key prefix"),
                  .button(.type(.submit), .class("primary"), .text("Search"))),
            .p(.class("muted"), .safeText("\(total) installation\(total == 1 ? "" : "s")")),
            customers.isEmpty ? .p(.class("muted"), .text("No app installations yet.")) : .div(.class("table-wrap"), .table(
                .thead(.tr(.th("Customer"), .th("Car"), .th("Phone"), .th("Bookings"), .th("Last seen"), .th("Priority"))),
                .tbody(.forEach(customers) { c in
                    .tr(
                        .td(.a(.attr("href", context.url(.customer(.value(c.id)))),
                               .safeText(c.name ?? "(no profile) " + c.keyPrefix))),
                        .td(.safeText([c.carMake, c.carPlate].compactMap { $0 }.joined(separator: " · "))),
                        .td(.safeText(c.phone ?? "—")),
                        .td(.class("num"), .safeText(String(c.appointmentCount))),
                        .td(.safeText(c.lastSeenAt.map(format.shortDateTime) ?? "Never")),
                        .td(.span(.class(c.priority == "blocked" ? "badge bad" : c.priority == "high" ? "badge warn" : "badge"),
                                  .safeText(c.priority)))
                    )
                })
            ))
        ))
    }

    @Sendable func detail(request: Request) async throws -> Response {
        guard let id = request.parameters.get(StudioPage.Key.id).flatMap(UUID.init(uuidString:)),
            let (c, messages, bookings) = try await StudioReads.customer(id, request)
        else { throw APIError.notFound("iOS user not found") }
        let settings = try await StudioReads.settings(request)
        let format = ConsoleDates(timezone: settings.timezone)
        let api = "/api/admin/ios-users/\(id.uuidString.lowercased())"
        return context.render(c.name ?? "Customer", request, .div(
            .class("stack"),
            .p(.a(.attr("href", context.url(.customers)), .text("← Customers"))),
            .h1(.safeText(c.name ?? "Customer without a profile")),
            .div(.class("grid"),
                .tag("section", .attr("class", "card"),
                    .h2("Profile"),
                    .dl(.class("facts"),
                        .dt("Phone"), .dd(.safeText(c.phone ?? "—")),
                        .dt("Telegram"), .dd(.safeText(c.telegram.map { "@" + $0 } ?? "—")),
                        .dt("Car"), .dd(.safeText([c.carMake, c.carPlate].compactMap { $0 }.joined(separator: " · ").nonEmpty ?? "—")),
                        .dt("Key"), .dd(.code(.safeText(c.keyPrefix + "…"))),
                        .dt("Installed"), .dd(.safeText(format.dayAndDateTime(c.createdAt))),
                        .dt("Last seen"), .dd(.safeText(c.lastSeenAt.map(format.dateTime) ?? "Never")),
                        .dt("Requests"), .dd(.safeText(String(c.requestCount))),
                        .dt("Priority"), .dd(.safeText(c.priority))
                    ),
                    .div(.class("row"),
                        .button(.type(.button), .class("danger"), .attr("data-api-action", "DELETE \(api)"),
                                .attr("data-confirm", "Revoke this installation? Its key stops working at once, its profile and messages are deleted; its bookings stay."),
                                .attr("data-then", context.url(.customers)), .text("Revoke install")))
                ),
                .tag("section", .attr("class", "card"),
                    .h2("Send a message"),
                    .tag("form", .attr("data-api", "POST \(api)/message"), .attr("id", "message-form"),
                         .attr("data-then", context.url(.customer(.value(id)))),
                        ConsoleForms.textArea("Message", name: "text", rows: 3, extra: [.attr("maxlength", "2000")]),
                        ConsoleForms.formError(),
                        .button(.type(.submit), .class("primary"), .text("Send"))),
                    .h3(.safeText("Messages (\(messages.count))")),
                    messages.isEmpty ? .p(.class("muted"), .text("None yet.")) : .ul(.forEach(messages) { m in
                        .li(.safeText(m.text), .br(),
                            .small(.class("muted"), .safeText(format.shortDateTime(m.createdAt) + (m.readAt == nil ? " · unread" : " · read"))))
                    }))
            ),
            .h2("Bookings"),
            BookingPages(context: context).bookingTable(bookings, format: format)
        ))
    }
}

extension String {
    /// nil for "", so `?? "—"` can stand in for an empty value.
    var nonEmpty: String? { isEmpty ? nil : self }
}
