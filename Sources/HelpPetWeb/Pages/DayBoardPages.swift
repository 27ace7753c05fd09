import AppCore
import Foundation
import HelpPetAPI
import Plot
import Vapor
import WebConsole

/// The day board (`{mount}/`): the practice-local day as columns by status, or one lane per vet; it polls its
/// own fragment (`/board`) every few seconds with an ETag, so it stays current without a reload.
struct DayBoardPages: Sendable {
    let context: ClinicContext
    /// One per console, shared by every viewer and poll of every board.
    let boards = BoardFragmentCache()

    enum Layout: String { case status, vets }

    func boot(_ routes: any RoutesBuilder) {
        routes.get(ClinicPage.board, use: page)
        routes.get(ClinicPage.boardFragment, use: fragment)
    }

    struct Selection {
        let practiceID: UUID?
        let day: CalendarDay?
        let layout: Layout
    }

    static func selection(_ request: Request) throws -> Selection {
        let dateText = request.query[String.self, at: "date"]
        var day: CalendarDay?
        if let dateText, !dateText.isEmpty {
            guard let parsed = CalendarDay(dateText) else {
                throw APIError.badRequest("Invalid date '\(dateText)'. Use YYYY-MM-DD.")
            }
            day = parsed
        }
        let practiceText = request.query[String.self, at: "practice"]
        let layout = Layout(rawValue: request.query[String.self, at: "layout"] ?? "status") ?? .status
        return Selection(practiceID: practiceText.flatMap { UUID(uuidString: $0) }, day: day, layout: layout)
    }

    @Sendable func page(request: Request) async throws -> Response {
        let user = try request.clinicUser
        if user.isOwner { return request.redirect(to: context.url(.myPets)) }
        if !user.isStaff { return PendingPage(context: context).render(request) }
        let selection = try Self.selection(request)
        // The stamp is read before the rows: a change in between costs one extra render, never a stale board.
        let version = try await Self.version(request, selection)
        // A board rendered for this stamp already: only the heading's practice and day are read.
        let cached = version.flatMap(boards.cached)
        let window = try await ClinicSchedule.window(
            request: request, practiceID: selection.practiceID, day: selection.day, days: 1,
            withAppointments: cached == nil)
        let clock = ConsoleDates(zone: window.practice.timezone)
        let board: String
        if let cached {
            board = cached
        } else {
            board = BoardView(context: context, window: window, layout: selection.layout).render()
            if let version { boards.store(board, for: version) }
        }
        let query = "date=\(window.firstDay)&layout=\(selection.layout.rawValue)&practice=\(window.practice.id.uuidString.lowercased())"
        return context.render("Day board", request, scripts: ["board.js"], .div(
            .class("stack"),
            .div(
                .class("row board-head"),
                .h1(.safeText(clock.dayTitle(window.firstDay))),
                .span(.class("muted"), .safeText("\(window.practice.name) · \(window.practice.timezone.identifier)")),
                .div(.class("spacer")),
                dayNavigation(window: window, selection: selection)
            ),
            .div(
                .id("board"), .attr("data-poll", context.url(.boardFragment) + "?" + query),
                .attr("data-etag", PartialResponse.etag(version ?? board)), .raw(board))
        ))
    }

    @Sendable func fragment(request: Request) async throws -> Response {
        let user = try request.clinicUser
        guard user.isStaff else { throw APIError.forbidden("Veterinary staff or administrator access required") }
        let selection = try Self.selection(request)
        let render = { () async throws -> String in
            let window = try await ClinicSchedule.window(
                request: request, practiceID: selection.practiceID, day: selection.day, days: 1)
            return BoardView(context: context, window: window, layout: selection.layout).render()
        }
        // Open boards poll every few seconds; an unchanged one is answered from its version stamp alone.
        guard let version = try await Self.version(request, selection) else {
            return PartialResponse.html(try await render(), for: request)
        }
        return try await PartialResponse.html(version: version, for: request) {
            try await boards.html(version: version, render: render)
        }
    }

    static func version(_ request: Request, _ selection: Selection) async throws -> String? {
        try await ClinicSchedule.version(
            request: request, practiceID: selection.practiceID, day: selection.day, days: 1
        ).map { $0 + "|" + selection.layout.rawValue }
    }

    private func dayNavigation(window: ScheduleWindow, selection: Selection) -> Node<HTML.BodyContext> {
        let practice = window.practice.id.uuidString.lowercased()
        func link(_ day: CalendarDay, layout: Layout) -> String {
            context.url(.board, query: ["date": day.description, "layout": layout.rawValue, "practice": practice])
        }
        return .div(
            .class("row"),
            .a(.class("button"), .attr("href", link(window.firstDay.adding(days: -1), layout: selection.layout)),
               .attr("aria-label", "Previous day"), .text("← Previous")),
            .a(.class("button"), .attr("href", context.url(.board, query: ["layout": selection.layout.rawValue, "practice": practice])),
               .text("Today")),
            .a(.class("button"), .attr("href", link(window.firstDay.adding(days: 1), layout: selection.layout)),
               .attr("aria-label", "Next day"), .text("Next →")),
            .form(
                .attr("method", "get"), .attr("action", context.url(.board)), .class("row"),
                .tag("label", .attr("for", "board-date"), .class("visually-hidden"), .text("Date")),
                .void("input", .attr("type", "date"), .attr("id", "board-date"), .attr("name", "date"),
                      .attr("value", window.firstDay.description)),
                .void("input", .attr("type", "hidden"), .attr("name", "layout"), .attr("value", selection.layout.rawValue)),
                .if(window.practices.count > 1,
                    .tag("select", [.attr("name", "practice"), .attr("aria-label", "Practice")] + window.practices.map { p in
                        .tag("option", .attr("value", p.id.uuidString.lowercased()), .flag("selected", p.id == window.practice.id),
                             .safeText(p.name))
                    }),
                    else: .void("input", .attr("type", "hidden"), .attr("name", "practice"), .attr("value", practice))),
                .button(.type(.submit), .text("Go"))
            ),
            .a(.class("button"), selection.layout == .status ? .attr("aria-current", "page") : .empty,
               .attr("href", link(window.firstDay, layout: .status)), .text("By status")),
            .a(.class("button"), selection.layout == .vets ? .attr("aria-current", "page") : .empty,
               .attr("href", link(window.firstDay, layout: .vets)), .text("By vet"))
        )
    }
}
