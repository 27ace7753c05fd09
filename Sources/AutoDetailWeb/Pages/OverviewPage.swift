import AppCore
import AutoDetailAPI
import Foundation
import Plot
import Vapor
import WebConsole

/// The console's home: today's bookings in order, what needs attention, and the last four weeks per day.
struct OverviewPage: Sendable {
    let context: StudioContext

    func boot(_ routes: any RoutesBuilder) {
        routes.get(StudioPage.overview, use: overview)
    }

    @Sendable func overview(request: Request) async throws -> Response {
        let settings = try await StudioReads.settings(request)
        let format = ConsoleDates(timezone: settings.timezone)
        let today = try await StudioReads.today(request)
        let todayDays = try await StudioReads.days(from: today, count: 1, request)
        let todays = try await StudioReads.calendar(
            from: todayDays[0].start, to: todayDays[0].end, includeCancelled: true, request
        ).filter { $0.start >= todayDays[0].start }
        let attention = try await StudioReads.attention(request)
        let lastDays = try await StudioReads.days(from: today.adding(days: -27), count: 28, request)
        let totals = try await StudioReads.dailyTotals(lastDays, request)
        let link = { (id: UUID) in context.url(.booking(.value(id))) }
        return context.render("Overview", request, .div(
            .class("stack"),
            .h1(.safeText("\(settings.studioName) · \(format.dayTitle(today))")),
            .div(.class("grid"),
                .tag("section", .attr("class", "card"), .attr("aria-labelledby", "today-title"),
                    .h2(.id("today-title"), .safeText("Today (\(todays.filter { $0.status != "cancelled" }.count))")),
                    todays.isEmpty ? .p(.class("muted"), .text("No bookings today.")) : .ol(
                        .class("today"),
                        .forEach(todays) { b in
                            .li(.a(.attr("href", link(b.id)),
                                   .strong(.safeText(format.time(b.start) + "–" + format.time(b.end))),
                                   .safeText(" \(b.clientName) · \(b.serviceName)")),
                                .text(" "),
                                .span(.class(StudioFormat.statusBadge(b.status)), .safeText(StudioFormat.statusLabel(b.status))))
                        })),
                .tag("section", .attr("class", "card attention"), .attr("aria-labelledby", "attention-title"),
                    .h2(.id("attention-title"), .text("Needs attention")),
                    attention.unconfirmed.isEmpty && attention.missingPhotos.isEmpty
                        ? .p(.class("muted"), .text("Nothing waiting.")) : .empty,
                    attention.unconfirmed.isEmpty ? .empty : .group(
                        .h3(.safeText("Not confirmed (\(attention.unconfirmed.count))")),
                        .ul(.forEach(attention.unconfirmed) { b in
                            .li(.a(.attr("href", link(b.id)), .safeText("\(format.shortDateTime(b.start)) · \(b.clientName)")),
                                .safeText(" · \(b.serviceName)"))
                        })),
                    attention.missingPhotos.isEmpty ? .empty : .group(
                        .h3(.safeText("Missing photos (\(attention.missingPhotos.count))")),
                        .ul(.forEach(attention.missingPhotos) { item in
                            let missing = [item.before ? "before" : nil, item.after ? "after" : nil].compactMap { $0 }
                            return .li(.a(.attr("href", link(item.0.id)),
                                          .safeText("\(format.shortDateTime(item.0.start)) · \(item.0.clientName)")),
                                       .safeText(" · no \(missing.joined(separator: " or ")) photos"))
                        }))
                )
            ),
            .h2("Last 4 weeks"),
            BarChartView(totals: totals, format: format).render(),
            .p(.class("muted"), .text("Bookings: every booking not cancelled, by the day it starts. Revenue: the price of completed (done) bookings."))
        ))
    }
}
