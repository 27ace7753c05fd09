import AppCore
import AutoDetailAPI
import Foundation
import Plot
import WebConsole

/// The overview's chart, drawn on the server as inline SVG (no script, no style attribute: geometry is in SVG
/// attributes, which the CSP allows): bookings per day above, revenue of completed work per day below, with the
/// same figures in a visually hidden table for screen readers.
struct BarChartView {
    let totals: [StudioDayTotal]
    let format: ConsoleDates

    func render() -> Node<HTML.BodyContext> {
        let width = 840.0, barArea = 110.0, gap = 30.0, left = 40.0
        let slot = (width - left) / Double(max(totals.count, 1))
        let maxBookings = max(totals.map(\.bookings).max() ?? 0, 1)
        let maxRevenue = max(totals.map(\.revenueRub).max() ?? 0, 1)
        var svg = "<svg viewBox=\"0 0 \(Int(width)) \(Int(2 * barArea + gap + 40))\" role=\"img\" aria-labelledby=\"chart-title\">"
        svg += "<title id=\"chart-title\">Bookings and revenue per day, last \(totals.count) days</title>"
        svg += "<text x=\"0\" y=\"12\">Bookings per day (highest \(totals.map(\.bookings).max() ?? 0))</text>"
        svg += "<text x=\"0\" y=\"\(Int(barArea + gap + 12))\">Revenue of completed work per day (highest \(HTMLEscaping.escape(StudioFormat.rub(totals.map(\.revenueRub).max() ?? 0))))</text>"
        for (index, total) in totals.enumerated() {
            let x = left + Double(index) * slot + 1
            let w = max(slot - 3, 1)
            let h1 = Double(total.bookings) / Double(maxBookings) * (barArea - 20)
            let h2 = Double(total.revenueRub) / Double(maxRevenue) * (barArea - 20)
            let label = HTMLEscaping.escape(format.tinyDay(total.day))
            svg += "<rect class=\"bar\" x=\"\(r(x))\" y=\"\(r(barArea - h1))\" width=\"\(r(w))\" height=\"\(r(h1))\">"
                + "<title>\(label): \(total.bookings) bookings</title></rect>"
            svg += "<rect class=\"bar revenue\" x=\"\(r(x))\" y=\"\(r(2 * barArea + gap - h2))\" width=\"\(r(w))\" height=\"\(r(h2))\">"
                + "<title>\(label): \(HTMLEscaping.escape(StudioFormat.rub(total.revenueRub)))</title></rect>"
            if index % 7 == 0 || index == totals.count - 1 {
                svg += "<text x=\"\(r(x))\" y=\"\(Int(2 * barArea + gap + 16))\">\(label)</text>"
            }
        }
        svg += "<line class=\"axis-line\" x1=\"\(Int(left))\" x2=\"\(Int(width))\" y1=\"\(Int(barArea))\" y2=\"\(Int(barArea))\"/>"
        svg += "<line class=\"axis-line\" x1=\"\(Int(left))\" x2=\"\(Int(width))\" y1=\"\(Int(2 * barArea + gap))\" y2=\"\(Int(2 * barArea + gap))\"/>"
        svg += "</svg>"
        // The chart scrolls sideways on a narrow screen, so its box takes keyboard focus (arrow keys scroll it).
        return .div(
            .class("chart card"), .attr("tabindex", "0"), .attr("role", "region"),
            .attr("aria-label", "Chart: bookings and revenue per day"), .raw(svg),
            .tag("table", .attr("class", "visually-hidden"),
                 .tag("tr", .tag("th", .text("Day")), .tag("th", .text("Bookings")), .tag("th", .text("Revenue"))),
                 .group(totals.map { total in
                     .tag("tr", .tag("td", .safeText(format.tinyDay(total.day))),
                          .tag("td", .safeText(String(total.bookings))),
                          .tag("td", .safeText(StudioFormat.rub(total.revenueRub))))
                 }))
        )
    }

    private func r(_ value: Double) -> String { String(format: "%.1f", value) }
}
