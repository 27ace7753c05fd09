import Foundation
import HelpPetAPI
import Plot
import WebConsole

/// A pet's weight over time as inline SVG drawn on the server: one point per current record that has a weight
/// (at its visit date, else when it was written). No chart library; the numbers are also in a table for screen
/// readers.
struct WeightChart {
    struct Point: Equatable {
        let date: Date
        let kilograms: Double
    }

    let points: [Point]
    let clock: ConsoleDates

    /// `profile`: the pet's own weight and when the pet was last saved, the latest point when no record is newer.
    init(records: [ConsoleRecord], profile: (kilograms: Double, at: Date)?, clock: ConsoleDates) {
        var points = records.filter(\.isCurrent).compactMap { record in
            record.weight.map { Point(date: record.visitDate ?? record.createdAt, kilograms: $0) }
        }.sorted { $0.date < $1.date }
        if let profile, points.last.map({ $0.date < profile.at }) ?? true {
            points.append(Point(date: profile.at, kilograms: profile.kilograms))
        }
        self.points = points
        self.clock = clock
    }

    func render() -> Node<HTML.BodyContext> {
        guard !points.isEmpty else {
            return .p(.class("muted"), .text("No weight recorded yet. Add a medical record with a weight."))
        }
        let width = 600.0, height = 200.0, left = 48.0, right = 16.0, top = 16.0, bottom = 32.0
        let low = (points.map(\.kilograms).min()! * 0.9).rounded(.down)
        let high = max((points.map(\.kilograms).max()! * 1.1).rounded(.up), low + 1)
        let first = points.first!.date.timeIntervalSince1970, last = points.last!.date.timeIntervalSince1970
        func x(_ date: Date) -> Double {
            last == first ? (left + width - right) / 2 + left / 2
                : left + (date.timeIntervalSince1970 - first) / (last - first) * (width - left - right)
        }
        func y(_ kg: Double) -> Double { top + (high - kg) / (high - low) * (height - top - bottom) }
        func n(_ value: Double) -> String { String(format: "%.1f", value) }
        let line = points.map { "\(n(x($0.date))),\(n(y($0.kilograms)))" }.joined(separator: " ")
        var svg = """
            <svg class="weight-chart" viewBox="0 0 \(Int(width)) \(Int(height))" role="img" \
            aria-label="Weight over time, \(points.count) measurements">
            <line x1="\(n(left))" y1="\(n(top))" x2="\(n(left))" y2="\(n(height - bottom))" class="axis"/>
            <line x1="\(n(left))" y1="\(n(height - bottom))" x2="\(n(width - right))" y2="\(n(height - bottom))" class="axis"/>
            <text x="\(n(left - 6))" y="\(n(y(high) + 4))" text-anchor="end">\(n(high))</text>
            <text x="\(n(left - 6))" y="\(n(y(low) + 4))" text-anchor="end">\(n(low))</text>
            <polyline points="\(line)" class="series"/>
            """
        for point in points {
            svg += """
                <circle cx="\(n(x(point.date)))" cy="\(n(y(point.kilograms)))" r="4" class="point" \
                data-kg="\(n(point.kilograms))"><title>\(HTMLEscaping.escape(clock.dateTime(point.date))): \
                \(n(point.kilograms)) kg</title></circle>
                """
        }
        svg += """
            <text x="\(n(left))" y="\(n(height - 10))">\(HTMLEscaping.escape(clock.shortDay(clock.day(of: points.first!.date))))</text>
            <text x="\(n(width - right))" y="\(n(height - 10))" text-anchor="end">\(HTMLEscaping.escape(clock.shortDay(clock.day(of: points.last!.date))))</text>
            </svg>
            """
        return .div(
            .class("chart"), .raw(svg),
            .table(.class("visually-hidden"),
                   .tr(.th("Date"), .th("Weight (kg)")),
                   .forEach(points) { point in .tr(.td(.safeText(clock.dateTime(point.date))), .td(.safeText(n(point.kilograms)))) })
        )
    }
}
