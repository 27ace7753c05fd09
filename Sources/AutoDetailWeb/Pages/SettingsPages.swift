import AppCore
import AutoDetailAPI
import Plot
import Vapor
import WebConsole

/// `/settings/api-keys` (the seed's page: organisation keys for the app, §4.7.2) and `/settings/studio` (the
/// studio settings of §3.2). Both write through `/api/admin/...` from the page's script.
struct SettingsPages: Sendable {
    let context: StudioContext

    func boot(_ routes: any RoutesBuilder) {
        routes.get(StudioPage.settings) { request -> Response in request.redirect(to: context.url(.studioSettings)) }
        routes.get(StudioPage.apiKeys, use: apiKeys)
        routes.get(StudioPage.studioSettings, use: studio)
    }

    @Sendable func apiKeys(request: Request) async throws -> Response {
        let settings = try await StudioReads.settings(request)
        let keys = try await StudioReads.apiKeys(request)
        let format = ConsoleDates(timezone: settings.timezone)
        return context.render("API keys", request, .div(
            .class("stack"),
            .h1("API keys"),
            .p(.class("muted"), .text("An organisation key lets an app or a website book appointments through the "
                + "client API. Paste it into the app's settings (API_KEY). The full key is shown only once, when it "
                + "is created.")),
            .tag("section", .attr("class", "card"), .attr("aria-labelledby", "create-key-title"),
                .h2(.id("create-key-title"), .text("Create a key")),
                .tag("form", .attr("id", "key-create"), .attr("data-api", "POST /api/admin/api-keys"),
                     .attr("data-done", "Key created"),
                    ConsoleForms.field("Name", name: "name", required: true,
                                       hint: "Where the key is used, e.g. “iPhone app” (2–100 characters).",
                                       extra: [.attr("maxlength", "100"), .attr("autocomplete", "off")]),
                    .tag("div", .attr("class", "field checkbox"),
                        .tag("label",
                            .void("input", .attr("type", "checkbox"), .attr("name", "fullAccess"),
                                  .attr("id", "field-fullAccess")),
                            .text(" Full access: may see, cancel and add photos to every booking, not only its own")),
                        ConsoleForms.errorSlot("fullAccess")),
                    ConsoleForms.formError(),
                    .button(.type(.submit), .class("primary"), .text("Create key"))
                ),
                .tag("div", .attr("id", "new-key"), .attr("class", "new-key"), .flag("hidden"),
                    .attr("role", "region"), .attr("aria-labelledby", "new-key-title"),
                    .h2(.id("new-key-title"), .text("Your new key")),
                    .p(.class("warning"), .strong("Copy it now."),
                       .text(" This is the only time the full key is shown; it cannot be read again. "
                           + "If it is lost, revoke it and create another.")),
                    .div(.class("row"),
                        .tag("code", .attr("id", "new-key-value"), .attr("class", "secret")),
                        .button(.type(.button), .id("copy-key"), .text("Copy"))),
                    .button(.type(.button), .id("new-key-done"), .class("primary"), .text("I have copied it"))
                )
            ),
            .h2("Keys"),
            keys.isEmpty
                ? .p(.class("muted"), .text("No keys yet."))
                : .div(.class("table-wrap"), .table(
                    .id("keys"),
                    .thead(.tr(.th("Name"), .th("Prefix"), .th("Access"), .th("Created"), .th("Last used"),
                               .th("Requests"), .th("Status"), .th(.span(.class("visually-hidden"), .text("Actions"))))),
                    .tbody(.forEach(keys) { key in
                        .tr(
                            .attr("data-key-id", key.id.uuidString.lowercased()),
                            .td(.safeText(key.name)),
                            .td(.code(.safeText(key.keyPrefix + "…"))),
                            .td(.safeText(key.fullAccess ? "Full" : "Own bookings")),
                            .td(.safeText(format.shortDateTime(key.createdAt))),
                            .td(.safeText(key.lastUsedAt.map(format.shortDateTime) ?? "Never")),
                            .td(.class("num"), .safeText(String(key.requestCount))),
                            .td(key.revoked
                                ? .span(.class("badge bad"), .safeText("Revoked " + (key.revokedAt.map(format.shortDateTime) ?? "")))
                                : .span(.class("badge ok"), .text("Active"))),
                            .td(key.revoked ? .empty : .button(
                                .type(.button), .class("danger"),
                                .attr("data-api-action", "DELETE /api/admin/api-keys/\(key.id.uuidString.lowercased())"),
                                .attr("data-confirm", "Revoke the key “\(key.name)”? Apps using it stop working at once; this cannot be undone."),
                                .attr("aria-label", "Revoke \(key.name)"),
                                .text("Revoke")))
                        )
                    })
                ))
        ))
    }

    @Sendable func studio(request: Request) async throws -> Response {
        let settings = try await StudioReads.settings(request)
        let dayNames = ["mon": "Monday", "tue": "Tuesday", "wed": "Wednesday", "thu": "Thursday", "fri": "Friday",
                        "sat": "Saturday", "sun": "Sunday"]
        return context.render("Studio settings", request, .div(
            .class("stack"),
            .h1("Studio settings"),
            .p(.class("muted"), .text("Changes apply to availability and bookings made afterwards; existing bookings "
                + "are never moved.")),
            .tag("form", .attr("id", "settings-form"), .attr("class", "card"),
                 .attr("data-api", "PUT /api/admin/settings"), .attr("data-shape", "settings"),
                ConsoleForms.field("Studio name", name: "studioName", value: settings.studioName, required: true),
                ConsoleForms.field("Time zone", name: "timezone", value: settings.timezone, required: true,
                                   hint: "An IANA zone such as Europe/Moscow or UTC."),
                .tag("fieldset", .attr("class", "hours"),
                    .tag("legend", .text("Opening hours (HH:mm; close may be 24:00)")),
                    .forEach(settings.hours) { day in
                        let name = dayNames[day.weekday] ?? day.weekday
                        return .div(
                            .class("hours-row"), .attr("data-day", day.weekday),
                            .tag("label", .attr("class", "day-open"),
                                .void("input", [.attr("type", "checkbox"), .attr("data-open-day", day.weekday),
                                                .attr("aria-label", "Open on \(name)")] + (day.open != nil ? [.flag("checked")] : [])),
                                .safeText(" " + name)),
                            .tag("label", .attr("for", "open-time-\(day.weekday)"), .attr("class", "visually-hidden"),
                                 .safeText("\(name) opens")),
                            .void("input", .attr("id", "open-time-\(day.weekday)"), .attr("data-opens", day.weekday), .attr("value", day.open ?? "09:00"), .attr("inputmode", "numeric"),
                                  .attr("pattern", "[0-9]{2}:[0-9]{2}"), .attr("size", "5")),
                            .span(.text("–")),
                            .tag("label", .attr("for", "close-time-\(day.weekday)"), .attr("class", "visually-hidden"),
                                 .safeText("\(name) closes")),
                            .void("input", .attr("id", "close-time-\(day.weekday)"), .attr("data-closes", day.weekday), .attr("value", day.close ?? "21:00"), .attr("inputmode", "numeric"),
                                  .attr("pattern", "[0-9]{2}:[0-9]{2}"), .attr("size", "5")),
                            ConsoleForms.errorSlot("workingHours.\(day.weekday)"),
                            ConsoleForms.errorSlot("workingHours.\(day.weekday).open"),
                            ConsoleForms.errorSlot("workingHours.\(day.weekday).close")
                        )
                    },
                    ConsoleForms.errorSlot("workingHours")
                ),
                .div(.class("grid"),
                    ConsoleForms.field("Slot step (minutes)", name: "slotStepMinutes", value: String(settings.slotStepMinutes),
                                       type: "number", required: true, hint: "5–240, a multiple of 5.",
                                       extra: [.attr("data-type", "integer")]),
                    ConsoleForms.field("Bays (capacity)", name: "capacity", value: String(settings.capacity),
                                       type: "number", required: true, hint: "Bookings that can run at the same time, 1–20.",
                                       extra: [.attr("data-type", "integer")]),
                    ConsoleForms.field("Booking horizon (days)", name: "bookingWindowDays",
                                       value: String(settings.bookingWindowDays), type: "number", required: true,
                                       hint: "How far ahead clients may book, 1–365.", extra: [.attr("data-type", "integer")]),
                    ConsoleForms.field("Lead time (minutes)", name: "leadTimeMinutes", value: String(settings.leadTimeMinutes),
                                       type: "number", required: true, hint: "Minimum notice for client bookings, 0–10080.",
                                       extra: [.attr("data-type", "integer")])
                ),
                ConsoleForms.field("Admin email", name: "adminEmail", value: settings.adminEmail ?? "", type: "email",
                                   hint: "Where a link to reset the console password is sent if it is forgotten. "
                                       + "Leave empty for no reset by email.",
                                   extra: [.attr("autocomplete", "email"), .attr("maxlength", "254"),
                                           .attr("data-null-when-empty", "")]),
                ConsoleForms.formError(),
                .button(.type(.submit), .class("primary"), .text("Save settings"))
            )
        ))
    }
}
