import AppCore
import AutoDetailAPI
import Foundation
import Plot
import WebConsole

/// The week calendar: a column per studio-local day (days come with their real start instants, so a DST week is
/// right), bookings placed by their local wall-clock start and sized by their elapsed length, side by side in as
/// many lanes as the studio has bays (more when it is overbooked), so capacity shows at a glance.
struct WeekCalendarView {
    let days: [StudioDay]
    let bookings: [StudioBooking]
    let settings: StudioSettingsValues
    let today: CalendarDay
    let bookingPath: (UUID) -> String

    private struct Placed {
        let booking: StudioBooking
        let top: Int
        let length: Int
        var lane: Int
    }

    func render() -> Node<HTML.BodyContext> {
        let format = ConsoleDates(timezone: settings.timezone)
        let byDay = placedByDay()
        let (first, last) = visibleRange(byDay)
        return .div(
            // A plain div may not carry a name (aria-prohibited-attr): the week and each day are named groups.
            .class("week"), .attr("role", "group"), .attr("aria-label", "Bookings of the week"),
            .div(.class("axis-col"), .attr("aria-hidden", "true"),
                 .div(.class("day-head-spacer")),
                 .div(.class("axis"), .attr("data-cal-minutes", String(last - first)),
                      .forEach(Array(stride(from: first, through: last, by: 60))) { minute in
                         .span(.attr("data-cal-top", String(minute - first)), .attr("data-cal-length", "0"),
                               .safeText(String(format: "%02d:00", (minute / 60) % 24)))
                      })),
            .forEach(days) { day in
                let placed = byDay[day.day] ?? []
                let peak = (placed.map(\.lane).max() ?? -1) + 1
                let lanes = max(settings.capacity, peak)
                let hoursLong = Int(day.end.timeIntervalSince(day.start) / 3600)
                return .div(
                    .class("day"), .attr("data-day", day.day.description),
                    .div(
                        .class(day.day == today ? "day-head today" : "day-head"),
                        .strong(.safeText(format.shortDay(day.day))),
                        .tag("small", .safeText(day.opens == nil ? "Closed" :
                            "\(placed.count) booking\(placed.count == 1 ? "" : "s") · peak \(peak)/\(settings.capacity) bays")),
                        hoursLong != 24 ? .tag("small", .safeText("\(hoursLong)-hour day (clock change)")) : .empty
                    ),
                    .div(
                        .class("day-body"), .attr("data-cal-minutes", String(last - first)),
                        .attr("role", "group"), .attr("aria-label", format.dayTitle(day.day)),
                        .group(closedBands(day, first: first, last: last)),
                        placed.isEmpty ? .p(.class("empty-day"), .text(day.opens == nil ? "Closed" : "No bookings")) : .empty,
                        .forEach(placed) { item in
                            let b = item.booking
                            return .a(
                                .class("booking status-\(b.status)"), .attr("href", bookingPath(b.id)),
                                .attr("data-cal-top", String(item.top - first)), .attr("data-cal-length", String(item.length)),
                                .attr("data-cal-lane", String(item.lane)), .attr("data-cal-lanes", String(lanes)),
                                .attr("data-booking-id", b.id.uuidString.lowercased()),
                                .strong(.safeText(format.time(b.start) + "–" + format.time(b.end))), .text(" "),
                                .safeText(b.clientName), .br(),
                                .safeText(b.serviceName + " · " + StudioFormat.statusLabel(b.status))
                            )
                        }
                    )
                )
            }
        )
    }

    /// Bookings by the local day they start on, with wall-clock top (minutes after local midnight), elapsed length
    /// and a lane (greedy: the first lane free at the booking's start).
    private func placedByDay() -> [CalendarDay: [Placed]] {
        var result: [CalendarDay: [Placed]] = [:]
        for booking in bookings.sorted(by: { $0.start < $1.start }) {
            let day = StudioReads.localPosition(booking.start, zone: settings.timezone).day
            let wall = StudioReads.wallTime(booking.start, zone: settings.timezone)
            let top = (Int(wall.prefix(2)) ?? 0) * 60 + (Int(wall.suffix(2)) ?? 0)
            let length = Int(booking.end.timeIntervalSince(booking.start) / 60)
            var placed = result[day] ?? []
            var laneEnds: [Date] = []
            for item in placed {
                while laneEnds.count <= item.lane { laneEnds.append(.distantPast) }
                laneEnds[item.lane] = max(laneEnds[item.lane], item.booking.end)
            }
            let lane = laneEnds.firstIndex { $0 <= booking.start } ?? laneEnds.count
            placed.append(Placed(booking: booking, top: top, length: length, lane: lane))
            result[day] = placed
        }
        return result
    }

    /// Whole hours covering every open interval and booking of the week (08:00–20:00 when there is none).
    private func visibleRange(_ byDay: [CalendarDay: [Placed]]) -> (Int, Int) {
        var first = Int.max, last = Int.min
        for day in days {
            guard let opens = day.opens, let closes = day.closes else { continue }
            first = min(first, minutes(of: opens))
            last = max(last, minutes(of: opens) + Int(closes.timeIntervalSince(opens) / 60))
        }
        for placed in byDay.values.joined() {
            first = min(first, placed.top)
            last = max(last, placed.top + placed.length)
        }
        if first == Int.max { return (8 * 60, 20 * 60) }
        return ((first / 60) * 60, min(((last + 59) / 60) * 60, 24 * 60 + 12 * 60))
    }

    private func minutes(of instant: Date) -> Int {
        let wall = StudioReads.wallTime(instant, zone: settings.timezone)
        return (Int(wall.prefix(2)) ?? 0) * 60 + (Int(wall.suffix(2)) ?? 0)
    }

    /// Shaded bands before opening and after closing (the whole column on a closed day).
    private func closedBands(_ day: StudioDay, first: Int, last: Int) -> [Node<HTML.BodyContext>] {
        func band(_ from: Int, _ to: Int) -> Node<HTML.BodyContext> {
            guard to > from else { return .empty }
            return .div(.class("closed-band"), .attr("aria-hidden", "true"),
                        .attr("data-cal-top", String(from - first)), .attr("data-cal-length", String(to - from)))
        }
        guard let opens = day.opens, let closes = day.closes else { return [band(first, last)] }
        let open = minutes(of: opens)
        let close = open + Int(closes.timeIntervalSince(opens) / 60)
        return [band(first, max(first, open)), band(min(close, last), last)]
    }
}
