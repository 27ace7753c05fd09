import AppCore
import Foundation
import HelpPetAPI
import Plot
import WebConsole

/// The board's columns (by status, or one lane per vet plus "Unassigned") and its appointment cards.
struct BoardView {
    let context: ClinicContext
    let window: ScheduleWindow
    let layout: DayBoardPages.Layout

    private var clock: ConsoleDates { ConsoleDates(zone: window.practice.timezone) }

    func render() -> String {
        let columns: [(title: String, key: String, items: [ScheduleAppointment])]
        switch layout {
        case .status:
            func having(_ statuses: Set<String>) -> [ScheduleAppointment] {
                window.appointments.filter { statuses.contains($0.status) }
            }
            columns = [
                ("Scheduled", "scheduled", having(["scheduled", "confirmed"])),
                ("In progress", "in_progress", having(["in_progress"])),
                ("Completed", "completed", having(["completed"])),
                ("Cancelled / no-show", "cancelled", having(["cancelled", "no_show"])),
            ]
        case .vets:
            let known = Set(window.vets.map(\.id))
            columns = window.vets.map { vet in
                (vet.name, "vet", window.appointments.filter { $0.vetID == vet.id })
            } + [("Unassigned", "unassigned", window.appointments.filter { $0.vetID.map { !known.contains($0) } ?? true })]
        }
        let node: Node<HTML.BodyContext> = .div(
            .class("board"),
            .forEach(columns) { column in
                .section(
                    .class("board-column column-\(column.key)"), .attr("aria-label", column.title),
                    .h2(.safeText(column.title), .span(.class("count"), .safeText(" \(column.items.count)"))),
                    .if(column.items.isEmpty, .p(.class("muted empty"), .text("Nothing here."))),
                    .forEach(column.items) { card($0) }
                )
            }
        )
        return node.render()
    }

    private func card(_ appointment: ScheduleAppointment) -> Node<HTML.BodyContext> {
        let id = appointment.id.uuidString.lowercased()
        let end = appointment.start.addingTimeInterval(TimeInterval(appointment.durationMinutes * 60))
        return .tag("article",
            .class("card appointment status-\(appointment.status)"), .attr("data-appointment", id),
            .div(
                .class("row"),
                .strong(.safeText("\(clock.time(appointment.start))–\(clock.time(end))")),
                .span(.class("badge"), .safeText(Labels.status(appointment.status))),
                .div(.class("spacer")),
                .span(.class("muted"), .safeText(Labels.type(appointment.type)))
            ),
            .h3(.a(.attr("href", context.url(.appointment(.value(appointment.id)))), .safeText(appointment.title))),
            .p(.class("muted"), .safeText("Owner: \(appointment.ownerName)"),
               .unwrap(appointment.vetName) { .safeText(" · \($0)") }),
            .ul(.class("pets"), .forEach(appointment.pets) { pet in
                .li(
                    .safeText("\(pet.name) "), .span(.class("muted"), .safeText("(\(pet.species))")), .text(" "),
                    .span(.class("badge \(Labels.recordingTone(pet.recordingState))"), .attr("data-recording", pet.recordingState),
                          .safeText(Labels.recording(pet.recordingState)))
                )
            }),
            actions(appointment)
        )
    }

    private func actions(_ appointment: ScheduleAppointment) -> Node<HTML.BodyContext> {
        let path = "/api/v1/appointments/\(appointment.id.uuidString.lowercased())"
        switch appointment.status {
        case "scheduled", "confirmed":
            return .div(.class("row"), .button(
                .class("primary"), .attr("data-api-action", "PUT \(path)"),
                .attr("data-body", #"{"status":"in_progress"}"#), .text("Start visit")))
        case "in_progress":
            return .div(.class("row"), .button(
                .attr("data-api-action", "PUT \(path)"), .attr("data-body", #"{"status":"completed"}"#),
                .text("End visit")))
        default:
            return .empty
        }
    }
}

/// The words the console uses for the API's enum values.
enum Labels {
    static func status(_ status: String) -> String {
        switch status {
        case "scheduled": "Scheduled"
        case "confirmed": "Confirmed"
        case "in_progress": "In progress"
        case "completed": "Completed"
        case "cancelled": "Cancelled"
        default: status.replacingOccurrences(of: "_", with: " ").capitalized
        }
    }

    static func type(_ type: String) -> String {
        type.replacingOccurrences(of: "_", with: " ").capitalized
    }

    static func recording(_ state: String) -> String {
        switch state {
        case "none": "No recording"
        case "uploading": "Uploading"
        case "processing": "Processing"
        case "transcribed": "Transcribed"
        case "failed": "Failed"
        case "notes": "Notes"
        default: state
        }
    }

    static func recordingTone(_ state: String) -> String {
        switch state {
        case "transcribed", "notes": "ok"
        case "uploading", "processing": "info"
        case "failed": "bad"
        default: ""
        }
    }
}
