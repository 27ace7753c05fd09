import AppCore
import Foundation
import HelpPetAPI
import Plot
import Vapor
import WebConsole

/// The practice's week: one column per local day (Monday first), every vet's appointments placed by start and
/// duration. Staff create an appointment by choosing an empty slot, and move or resize one by dragging; each change
/// is the API's `POST`/`PUT /appointments` with its rules and messages. Every 15-minute cell carries its own
/// instant, computed here in the practice's zone, so a drop on a DST day lands on the right wall-clock time.
struct WeekPages: Sendable {
    let context: ClinicContext
    static let slotMinutes = 15

    func boot(_ routes: any RoutesBuilder) {
        routes.get(ClinicPage.week, use: page)
    }

    @Sendable func page(request: Request) async throws -> Response {
        let user = try request.clinicUser
        guard user.isStaff else { throw APIError.forbidden("Veterinary staff or administrator access required") }
        let selection = try DayBoardPages.selection(request)
        // The week of the chosen day (today by default), Monday first, in the practice's zone.
        let probe = try await ClinicSchedule.window(
            request: request, practiceID: selection.practiceID, day: selection.day, days: 1)
        let monday = Self.monday(of: probe.firstDay)
        let window = try await ClinicSchedule.window(
            request: request, practiceID: probe.practice.id, day: monday, days: 7)
        let clock = ConsoleDates(zone: window.practice.timezone)
        let days = (0..<7).map { monday.adding(days: $0) }
        var firstHour = 7, lastHour = 20
        for appointment in window.appointments {
            let start = clock.minuteOfDay(appointment.start)
            firstHour = min(firstHour, start / 60)
            lastHour = max(lastHour, min(24, (start + appointment.durationMinutes + 59) / 60))
        }
        let vetIndex = Dictionary(uniqueKeysWithValues: window.vets.enumerated().map { ($1.id, $0) })
        let practice = PageParts.lower(window.practice.id)
        func link(_ day: CalendarDay) -> String { context.url(.week, query: ["date": day.description, "practice": practice]) }
        let today = clock.day(of: request.now)

        return context.render("Week", request, scripts: ["week.js"], .div(
            .class("stack"),
            .div(.class("row"),
                 .h1(.safeText("Week of \(clock.shortDay(monday))")),
                 .span(.class("muted"), .safeText("\(window.practice.name) · \(window.practice.timezone.identifier)")),
                 .div(.class("spacer")),
                 .a(.class("button"), .attr("href", link(monday.adding(days: -7))), .text("← Previous week")),
                 .a(.class("button"), .attr("href", context.url(.week, query: ["practice": practice])), .text("This week")),
                 .a(.class("button"), .attr("href", link(monday.adding(days: 7))), .text("Next week →"))),
            .ul(.class("legend row"), .forEach(window.vets) { vet in
                .li(.span(.class("swatch vet-\(vetIndex[vet.id]! % 6)")), .safeText(vet.name))
            }),
            .p(.class("muted hint"), .text("Choose an empty slot to book; drag an appointment to move it, drag its lower edge to change its length.")),
            .div(
                .class("week"), .id("week"), .attr("data-practice", practice),
                .attr("data-slot-minutes", String(Self.slotMinutes)),
                .attr("data-rows", String((lastHour - firstHour) * 60 / Self.slotMinutes)),
                .div(.class("week-times"), .attr("aria-hidden", "true"), .div(.class("week-day-head")),
                     .forEach(firstHour..<lastHour) { hour in .div(.class("week-hour"), .safeText(String(format: "%02d:00", hour))) }),
                .forEach(days) { day in
                    dayColumn(day, isToday: day == today, window: window, clock: clock, vetIndex: vetIndex,
                              hours: firstHour..<lastHour)
                }
            ),
            newAppointmentDialog(window: window)
        ))
    }

    private func dayColumn(
        _ day: CalendarDay, isToday: Bool, window: ScheduleWindow, clock: ConsoleDates, vetIndex: [UUID: Int],
        hours: Range<Int>
    ) -> Node<HTML.BodyContext> {
        let slots = stride(from: hours.lowerBound * 60, to: hours.upperBound * 60, by: Self.slotMinutes).map { minute in
            (minute, LocalDay.instant(on: day, hour: minute / 60, minute: minute % 60, in: clock.zone))
        }
        let appointments = window.appointments.filter { clock.day(of: $0.start) == day }
        let lanes = Self.lanes(appointments)
        let laneCount = String((lanes.values.max() ?? 0) + 1)
        return .section(
            .class(isToday ? "week-day today" : "week-day"), .attr("aria-label", clock.dayTitle(day)),
            .attr("data-date", day.description),
            .div(.class("week-day-head"), .a(.attr("href", context.url(.board, query: ["date": day.description, "practice": PageParts.lower(window.practice.id)])),
                                              .safeText(clock.shortDay(day)))),
            .div(
                .class("week-slots"),
                .forEach(slots) { minute, instant in
                    .div(.class(minute % 60 == 0 ? "slot hour" : "slot"), .attr("data-at", WireTime.format(instant)),
                         .attr("data-label", "\(clock.shortDay(day)) \(String(format: "%02d:%02d", minute / 60, minute % 60))"))
                },
                .forEach(appointments) { appointment in
                    let top = clock.minuteOfDay(appointment.start) - hours.lowerBound * 60
                    let vetClass = appointment.vetID.flatMap { vetIndex[$0] }.map { "vet-\($0 % 6)" } ?? "vet-none"
                    return .tag("article",
                        .class("week-appointment \(vetClass) status-\(appointment.status)"),
                        .attr("data-appointment", PageParts.lower(appointment.id)),
                        .attr("data-duration", String(appointment.durationMinutes)),
                        // Positions travel as data (the page's CSP allows no inline style); week.js turns them into CSS variables.
                        .attr("data-top", String(top / Self.slotMinutes)),
                        .attr("data-span", String(max(1, appointment.durationMinutes / Self.slotMinutes))),
                        .attr("data-lane", String(lanes[appointment.id] ?? 0)), .attr("data-lanes", laneCount),
                        .a(.attr("href", context.url(.appointment(.value(appointment.id)))),
                           .strong(.safeText(clock.time(appointment.start))), .text(" "), .safeText(appointment.title)),
                        .span(.class("muted"), .safeText(appointment.vetName ?? "Unassigned")),
                        .div(.class("resize"), .attr("aria-hidden", "true"))
                    )
                }
            )
        )
    }

    /// The form the empty-slot click opens: owner search and pets come from the API (`week.js`).
    private func newAppointmentDialog(window: ScheduleWindow) -> Node<HTML.BodyContext> {
        let types = ["checkup", "vaccination", "surgery", "emergency", "follow_up", "consultation", "grooming"]
        return .tag("dialog", .id("new-appointment"), .attr("aria-labelledby", "new-appointment-title"),
            .tag("form", .attr("method", "dialog"), .class("stack"), .id("new-appointment-form"),
                .h2(.id("new-appointment-title"), .text("New appointment")),
                .p(.id("new-appointment-when"), .class("muted")),
                .void("input", .attr("type", "hidden"), .attr("name", "appointment_date")),
                .void("input", .attr("type", "hidden"), .attr("name", "practice_id"), .attr("value", PageParts.lower(window.practice.id))),
                ConsoleForms.field("Owner", name: "owner_search", hint: "Type a name, phone or email, then choose",
                                   extra: [.attr("list", "owner-options"), .attr("autocomplete", "off")]),
                .tag("datalist", .id("owner-options")),
                .void("input", .attr("type", "hidden"), .attr("name", "pet_owner_id")),
                .tag("fieldset", .id("pet-choices"), .tag("legend", .text("Pets")), .p(.class("muted"), .text("Choose an owner first."))),
                ConsoleForms.errorSlot("pet_ids"),
                ConsoleForms.field("Title", name: "title", required: true),
                ConsoleForms.select("Type", name: "appointment_type", options: types.map { ($0, Labels.type($0)) }, selected: "checkup"),
                ConsoleForms.field("Duration (minutes)", name: "duration_minutes", value: "30", type: "number",
                                   extra: [.attr("min", "5"), .attr("max", "480"), .attr("step", "5")]),
                ConsoleForms.select("Vet", name: "assigned_vet_user_id",
                                    options: [("", "Unassigned")] + window.vets.map { (PageParts.lower($0.id), $0.name) },
                                    selected: nil),
                ConsoleForms.formError(),
                .div(.class("row"),
                     .button(.type(.submit), .class("primary"), .attr("value", "book"), .text("Book")),
                     .button(.type(.button), .attr("data-close", ""), .text("Cancel")))
            )
        )
    }

    /// Side-by-side lanes for overlapping appointments: each takes the first lane free at its start.
    static func lanes(_ appointments: [ScheduleAppointment]) -> [UUID: Int] {
        var laneEnds: [Date] = []
        var result: [UUID: Int] = [:]
        for appointment in appointments.sorted(by: { $0.start < $1.start }) {
            let end = appointment.start.addingTimeInterval(TimeInterval(appointment.durationMinutes * 60))
            if let free = laneEnds.firstIndex(where: { $0 <= appointment.start }) {
                laneEnds[free] = end
                result[appointment.id] = free
            } else {
                laneEnds.append(end)
                result[appointment.id] = laneEnds.count - 1
            }
        }
        return result
    }

    static func monday(of day: CalendarDay) -> CalendarDay {
        let calendar = LocalDay.calendar(in: .gmt)
        let date = calendar.date(from: DateComponents(year: day.year, month: day.month, day: day.day, hour: 12))!
        let weekday = calendar.component(.weekday, from: date)  // 1 = Sunday
        return day.adding(days: -((weekday + 5) % 7))
    }
}
