import AppCore
import AutoDetailAPI
import Foundation
import Plot
import Vapor
import WebConsole

/// Bookings: the week calendar, the filterable list and a booking's page (status actions of the admin API,
/// reschedule with a slot picker, before/after photos).
struct BookingPages: Sendable {
    let context: StudioContext

    func boot(_ routes: any RoutesBuilder) {
        routes.get(StudioPage.bookingsWeek, use: week)
        routes.get(StudioPage.bookingsList, use: list)
        routes.get(StudioPage.booking(.key), use: detail)
        routes.get(StudioPage.bookingSlots(.key), use: slots)
        routes.post(StudioPage.rescheduleBooking(.key), use: reschedule)
        routes.get(StudioPage.photoThumbnail(booking: .key, photo: .key), use: thumbnail)
    }

    func bookingPath(_ id: UUID) -> String { context.url(.booking(.value(id))) }

    private func tabs(_ current: String) -> Node<HTML.BodyContext> {
        .nav(.class("tabs"), .attr("aria-label", "Bookings views"),
             .a(.class("button"), .attr("href", context.url(.bookingsWeek)),
                current == "week" ? .attr("aria-current", "page") : .empty, .text("Week")),
             .a(.class("button"), .attr("href", context.url(.bookingsList)),
                current == "list" ? .attr("aria-current", "page") : .empty, .text("List")))
    }

    // MARK: Week

    @Sendable func week(request: Request) async throws -> Response {
        let settings = try await StudioReads.settings(request)
        let today = try await StudioReads.today(request)
        let requested = request.query[String.self, at: "week"].flatMap(CalendarDay.init) ?? today
        // Weeks start on Monday (1970-01-01 was a Thursday: +3 makes Monday 0).
        let monday = requested.adding(days: -Int(((requested.daysSince1970 + 3) % 7 + 7) % 7))
        let days = try await StudioReads.days(from: monday, count: 7, request)
        let bookings = try await StudioReads.calendar(
            from: days.first!.start, to: days.last!.end, includeCancelled: false, request)
        let format = ConsoleDates(timezone: settings.timezone)
        let weekLink = { (day: CalendarDay) in context.url(.bookingsWeek, query: ["week": day.description]) }
        return context.render("Bookings", request, .div(
            .class("stack"),
            .div(.class("head"),
                 .h1(.safeText("Week of \(format.tinyDay(monday)) – \(format.tinyDay(monday.adding(days: 6)))")),
                 tabs("week")),
            .div(.class("row"),
                 .a(.class("button"), .attr("href", weekLink(monday.adding(days: -7))), .text("← Previous week")),
                 .a(.class("button"), .attr("href", weekLink(today)), .text("This week")),
                 .a(.class("button"), .attr("href", weekLink(monday.adding(days: 7))), .text("Next week →")),
                 .span(.class("spacer")),
                 .span(.class("capacity-note"), .safeText("\(settings.capacity) bays · times in \(settings.timezone)"))),
            .div(.class("cal-legend"),
                 .span(.class("badge warn"), .text("New")), .span(.class("badge info"), .text("Confirmed")),
                 .span(.class("badge ok"), .text("In progress / done")),
                 .span(.text("Cancelled bookings are left out; see the list."))),
            WeekCalendarView(days: days, bookings: bookings, settings: settings, today: today,
                             bookingPath: bookingPath).render()
        ))
    }

    // MARK: List

    @Sendable func list(request: Request) async throws -> Response {
        let settings = try await StudioReads.settings(request)
        let services = try await StudioReads.services(request)
        let query = request.query
        let status = query[String.self, at: "status"].flatMap { $0.isEmpty ? nil : $0 }
        let from = query[String.self, at: "from"].flatMap(CalendarDay.init)
        let to = query[String.self, at: "to"].flatMap(CalendarDay.init)
        let serviceID = query[String.self, at: "service"].flatMap(UUID.init(uuidString:))
        let search = query[String.self, at: "search"].map { $0.trimmingCharacters(in: .whitespaces) }
            .flatMap { $0.isEmpty ? nil : String($0.prefix(100)) }
        let bookings = try await StudioReads.list(
            status: status, from: from, to: to, serviceID: serviceID, search: search, limit: 300, request)
        let format = ConsoleDates(timezone: settings.timezone)
        let statuses = ["new", "confirmed", "in_progress", "done", "cancelled"]
        return context.render("Bookings list", request, .div(
            .class("stack"),
            .div(.class("head"), .h1("Bookings"), tabs("list")),
            .form(
                .class("filters card"), .attr("method", "get"), .attr("action", context.url(.bookingsList)),
                ConsoleForms.select("Status", name: "status",
                                    options: [("", "Any")] + statuses.map { ($0, StudioFormat.statusLabel($0)) },
                                    selected: status ?? ""),
                ConsoleForms.field("From", name: "from", value: from?.description ?? "", type: "date"),
                ConsoleForms.field("To", name: "to", value: to?.description ?? "", type: "date"),
                ConsoleForms.select("Service", name: "service",
                                    options: [("", "Any")] + services.map { ($0.id.uuidString.lowercased(), $0.name) },
                                    selected: serviceID?.uuidString.lowercased() ?? ""),
                ConsoleForms.field("Customer", name: "search", value: search ?? "", type: "search",
                                   hint: "Name, plate or phone"),
                .button(.type(.submit), .class("primary"), .text("Filter"))
            ),
            .p(.class("muted"), .safeText(bookings.count == 300 ? "The first 300 matching bookings." :
                "\(bookings.count) booking\(bookings.count == 1 ? "" : "s")")),
            bookingTable(bookings, format: format)
        ))
    }

    func bookingTable(_ bookings: [StudioBooking], format: ConsoleDates) -> Node<HTML.BodyContext> {
        if bookings.isEmpty { return .p(.class("muted"), .text("No bookings match.")) }
        return .div(.class("table-wrap"), .table(
            .id("bookings"),
            .thead(.tr(.th("When"), .th("Customer"), .th("Car"), .th("Service"), .th("Price"), .th("Status"))),
            .tbody(.forEach(bookings) { b in
                .tr(
                    .td(.a(.attr("href", bookingPath(b.id)), .safeText(format.dayAndDateTime(b.start)))),
                    .td(.safeText(b.clientName), .unwrap(b.phone) { .div(.class("muted"), .safeText($0)) }),
                    .td(.safeText([b.carMake, b.carPlate].compactMap { $0 }.joined(separator: " · "))),
                    .td(.safeText(b.serviceName)),
                    .td(.class("num"), .safeText(StudioFormat.rub(b.priceRub))),
                    .td(.span(.class(StudioFormat.statusBadge(b.status)), .safeText(StudioFormat.statusLabel(b.status))))
                )
            })
        ))
    }

    // MARK: Detail

    private func bookingID(_ request: Request) throws -> UUID {
        guard let id = request.parameters.get(StudioPage.Key.id).flatMap(UUID.init(uuidString:)) else {
            throw APIError.notFound("Appointment not found")
        }
        return id
    }

    @Sendable func detail(request: Request) async throws -> Response {
        let id = try bookingID(request)
        guard let b = try await StudioReads.booking(id, request) else { throw APIError.notFound("Appointment not found") }
        let settings = try await StudioReads.settings(request)
        let format = ConsoleDates(timezone: settings.timezone)
        let apiPath = "/api/admin/appointments/\(id.uuidString.lowercased())"
        let day = StudioReads.localPosition(b.start, zone: settings.timezone).day
        return context.render("Booking of \(b.clientName)", request, .div(
            .class("stack"),
            .p(.a(.attr("href", context.url(.bookingsWeek, query: ["week": day.description])), .text("← Week of this booking"))),
            .div(.class("head"),
                 .h1(.safeText(b.clientName + " · " + format.dayAndDateTime(b.start))),
                 .span(.id("booking-status"), .class(StudioFormat.statusBadge(b.status)),
                       .attr("data-status", b.status), .safeText(StudioFormat.statusLabel(b.status)))),
            .div(.class("grid"),
                .tag("section", .attr("class", "card"),
                    .h2("Booking"),
                    .dl(.class("facts"),
                        .dt("When"), .dd(.safeText("\(format.dayAndDateTime(b.start)) – \(format.time(b.end)) (\(settings.timezone))")),
                        .dt("Service"), .dd(.safeText("\(b.serviceName) · \(StudioFormat.minutes(Int(b.end.timeIntervalSince(b.start) / 60)))")),
                        .dt("Price"), .dd(.safeText(StudioFormat.rub(b.priceRub))),
                        .dt("Booked via"), .dd(.safeText(b.source == "ios" ? "iPhone app" : b.source == "api" ? "API key" : "Console")),
                        .dt("Created"), .dd(.safeText(format.dayAndDateTime(b.createdAt))),
                        .dt("Notes"), .dd(.safeText(b.notes ?? "—"))
                    )),
                .tag("section", .attr("class", "card"),
                    .h2("Customer and car"),
                    .dl(.class("facts"),
                        .dt("Name"), .dd(.safeText(b.clientName)),
                        .dt("Phone"), .dd(.safeText(b.phone ?? "—")),
                        .dt("Telegram"), .dd(.safeText(b.telegram.map { "@" + $0 } ?? "—")),
                        .dt("Car"), .dd(.safeText(b.carMake ?? "—")),
                        .dt("Plate"), .dd(.safeText(b.carPlate ?? "—"))
                    ),
                    .unwrap(b.installId) { install in
                        .p(.a(.attr("href", context.url(.customer(.value(install)))),
                              .text("App customer profile and messages →")))
                    })
            ),
            .tag("section", .attr("class", "card"), .attr("aria-labelledby", "status-title"),
                .h2(.id("status-title"), .text("Status")),
                b.nextStatuses.isEmpty
                    ? .p(.class("muted"), .safeText("This booking is \(StudioFormat.statusLabel(b.status).lowercased()); its status cannot change any more."))
                    : .div(.class("status-actions"), .forEach(b.nextStatuses) { next in
                        .button(
                            .type(.button), .class(next == "cancelled" ? "danger" : "primary"),
                            .attr("data-api-action", "PUT \(apiPath)"),
                            .attr("data-body", "{\"status\":\"\(next)\"}"),
                            .attr("data-next-status", next),
                            next == "cancelled" ? .attr("data-confirm", "Cancel this booking (or mark it a no-show)? The bay becomes free again.") : .empty,
                            .safeText(next == "cancelled" ? "Cancel / no-show" : StudioFormat.actionLabel(next)))
                    }),
                .tag("form", .attr("data-api", "PUT \(apiPath)"), .attr("data-done", "Notes saved"),
                    ConsoleForms.textArea("Notes", name: "notes", value: b.notes ?? "", rows: 2,
                                          extra: [.attr("maxlength", "500"), .attr("data-null-when-empty", "")]),
                    ConsoleForms.formError(),
                    .button(.type(.submit), .text("Save notes")))
            ),
            b.status == "new" || b.status == "confirmed" ? rescheduleSection(b, day: day) : .empty,
            photoSection(b, kind: "defect", title: "Before", format: format),
            photoSection(b, kind: "work", title: "After", format: format)
        ))
    }

    private func rescheduleSection(_ b: StudioBooking, day: CalendarDay) -> Node<HTML.BodyContext> {
        return .tag("section", .attr("class", "card"), .attr("id", "reschedule"), .attr("aria-labelledby", "reschedule-title"),
            .attr("data-slots-url", context.url(.bookingSlots(.value(b.id)))),
            .attr("data-move-url", context.url(.rescheduleBooking(.value(b.id)))),
            .h2(.id("reschedule-title"), .text("Reschedule")),
            .p(.class("muted"), .text("Only slots with a free bay are offered; the move is checked again when you pick one.")),
            .div(.class("row"),
                .tag("label", .attr("for", "reschedule-date"), .text("Day")),
                .void("input", .attr("type", "date"), .attr("id", "reschedule-date"), .attr("value", day.description)),
                .button(.type(.button), .attr("data-load-slots", ""), .text("Show free slots"))),
            ConsoleForms.formError(),
            .div(.class("slots"), .attr("data-slots", ""), .attr("aria-live", "polite"))
        )
    }

    private func photoSection(_ b: StudioBooking, kind: String, title: String, format: ConsoleDates) -> Node<HTML.BodyContext> {
        let photos = b.photos.filter { $0.kind == kind }
        let id = b.id.uuidString.lowercased()
        return .tag("section", .attr("class", "card"), .attr("id", "photos-\(kind)"),
            .attr("aria-labelledby", "photos-\(kind)-title"),
            .h2(.id("photos-\(kind)-title"), .safeText("\(title) photos (\(photos.count))")),
            photos.isEmpty ? .p(.class("muted"), .text("None yet.")) : .div(.class("photos"), .forEach(photos) { photo in
                .div(.class("photo"), .attr("data-photo-id", photo.id.uuidString.lowercased()),
                    .a(.attr("href", photo.url), .attr("target", "_blank"), .attr("rel", "noopener"),
                       .attr("aria-label", "\(title) photo of \(format.shortDateTime(photo.createdAt)), full size"),
                       .void("img", .attr("src", context.url(.photoThumbnail(booking: .value(b.id), photo: .value(photo.id)))),
                             .attr("alt", "\(title) photo"), .attr("loading", "lazy"),
                             .attr("width", "160"), .attr("height", "120"))),
                    .div(.class("row"),
                        .span(.class("muted"), .safeText(format.shortDateTime(photo.createdAt))),
                        photo.mismatch ? .span(.class("badge bad"), .text("Changed")) : .empty,
                        .button(.type(.button), .class("danger"),
                                .attr("data-api-action", "DELETE /api/admin/appointments/\(id)/photos/\(photo.id.uuidString.lowercased())"),
                                .attr("data-confirm", "Delete this \(title.lowercased()) photo? This cannot be undone."),
                                .text("Delete")))
                )
            }),
            b.status == "cancelled" ? .empty : .form(
                .class("upload"), .attr("data-photo-upload", ""), .attr("data-booking", id), .attr("data-kind", kind),
                .div(.class("field"),
                    .tag("label", .attr("for", "upload-\(kind)"), .safeText("Add \(title.lowercased()) photos (JPEG, PNG or HEIC, up to 15 MiB)")),
                    .void("input", .attr("type", "file"), .attr("id", "upload-\(kind)"), .attr("name", "file"),
                          .attr("accept", "image/jpeg,image/png,image/heic"), .flag("multiple"))),
                .div(.class("progress"), .attr("aria-hidden", "true"), .span()),
                .p(.class("muted"), .attr("data-upload-status", ""), .attr("aria-live", "polite")),
                ConsoleForms.formError(),
                .button(.type(.submit), .class("primary"), .safeText("Upload \(title.lowercased()) photos"))
            )
        )
    }

    /// A photo's cached thumbnail (`StudioThumbnails`), or the original when none can be made.
    @Sendable func thumbnail(request: Request) async throws -> Response {
        let id = try bookingID(request)
        guard let photoID = request.parameters.get(StudioPage.Key.photo).flatMap(UUID.init(uuidString:)) else {
            throw APIError.notFound("Photo not found")
        }
        if let data = try await StudioThumbnails.thumbnail(photo: photoID, booking: id, request: request) {
            let response = Response(status: .ok, body: .init(data: data))
            response.headers.contentType = .jpeg
            return response
        }
        guard let original = try await StudioReads.booking(id, request)?.photos.first(where: { $0.id == photoID }) else {
            throw APIError.notFound("Photo not found")
        }
        return request.redirect(to: original.url, redirectType: .normal)
    }

    // MARK: Reschedule

    @Sendable func slots(request: Request) async throws -> Response {
        let id = try bookingID(request)
        guard let day = request.query[String.self, at: "date"].flatMap(CalendarDay.init) else {
            throw APIError.badRequest("Invalid parameter: date (must be a date YYYY-MM-DD)")
        }
        let settings = try await StudioReads.settings(request)
        let format = ConsoleDates(timezone: settings.timezone)
        let slots = try await StudioReads.rescheduleSlots(id, day: day, request)
        let iso = ISO8601DateFormatter()
        let fragment: Node<HTML.BodyContext> = slots.isEmpty
            ? .p(.class("muted"), .safeText("No free slot on \(format.dayTitle(day))."))
            : .group(slots.map { slot in
                .button(.type(.button), .attr("data-start", iso.string(from: slot.start)),
                        .attr("data-label", "\(format.shortDay(day)) \(slot.startTime)"),
                        .safeText("\(slot.startTime)–\(slot.endTime) · \(slot.remaining) free"))
            })
        let response = Response(status: .ok, body: .init(string: fragment.render()))
        response.headers.contentType = .html
        return response
    }

    private struct MoveBody: Content { var startIso: String? }

    @Sendable func reschedule(request: Request) async throws -> Response {
        let id = try bookingID(request)
        let body = (try? request.content.decode(MoveBody.self)) ?? MoveBody()
        try await StudioReschedule.move(id, startIso: body.startIso, request: request)
        let response = Response(status: .ok, body: .init(string: "{}"))
        response.headers.contentType = .json
        return response
    }
}
