import ArgumentParser
import CLISupport
import Foundation
import HelpPetKit

struct TodayCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "today", abstract: "Today's appointments of the logged-in vet (practice-local day).")

    @OptionGroup var global: GlobalOptions

    @Option(name: .long, help: "Another day, YYYY-MM-DD (practice-local).")
    var date: String?

    func validate() throws {
        if let date, HelpPetCoding.parseDate(date) == nil || date.count != 10 {
            throw ValidationError("--date must be YYYY-MM-DD, got '\(date)'")
        }
    }

    func run() async throws {
        let dashboard = try await global.makeClient().today(date: date)
        if global.json { return try global.printJSON(dashboard) }
        let zone = dashboard.timezone.flatMap(TimeZone.init(identifier:))
        let count = dashboard.appointmentsToday.count
        Terminal.out(
            "\(dashboard.date ?? "Today") (\(dashboard.timezone ?? "local time")): \(count) appointment\(count == 1 ? "" : "s"), "
                + "\(dashboard.completedCount) completed, \(dashboard.remainingCount) remaining")
        guard count > 0 else { return }
        var table = Table("TIME", "STATUS", "TITLE", "PETS", "APPOINTMENT")
        for appointment in dashboard.appointmentsToday {
            var marker = ""
            if appointment.id == dashboard.currentAppointment?.id { marker = " (current)" }
            if appointment.id == dashboard.nextAppointment?.id { marker = " (next)" }
            table.add(
                Format.time(appointment.appointmentDate, timeZone: zone), appointment.status.rawValue + marker,
                Format.truncate(appointment.title, 44), petList(appointment.pets), appointment.id)
        }
        Terminal.out("")
        Terminal.out(table.render())
    }
}

/// `Bella ✓, Max, Mittens` (✓ recorded).
func petList(_ pets: [PetSummary]) -> String {
    pets.map { $0.name + ($0.recording != nil ? " ✓" : "") }.joined(separator: ", ")
}

struct AppointmentCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "appointment", abstract: "Show, start or complete an appointment.",
        subcommands: [Show.self, Start.self, Complete.self])

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show an appointment and its pets' recordings.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Appointment id.") var id: String

        func run() async throws {
            let appointment = try await global.makeClient().appointment(id: id)
            if global.json { return try global.printJSON(appointment) }
            printAppointment(appointment)
        }
    }

    struct Start: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Start the visit (status in_progress).")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Appointment id.") var id: String

        func run() async throws {
            let appointment = try await global.makeClient().startAppointment(id: id)
            if global.json { return try global.printJSON(appointment) }
            Terminal.out("Appointment \(appointment.id) is \(appointment.status.rawValue): \(appointment.title)")
            Terminal.out("Record each pet with: helppet record --appointment \(appointment.id) --pet PET_ID FILE")
            printPets(appointment.pets)
        }
    }

    struct Complete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "End the visit (status completed).")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Appointment id.") var id: String

        func run() async throws {
            let appointment = try await global.makeClient().completeAppointment(id: id)
            if global.json { return try global.printJSON(appointment) }
            Terminal.out("Appointment \(appointment.id) is \(appointment.status.rawValue): \(appointment.title)")
        }
    }
}

func printAppointment(_ appointment: Appointment) {
    Terminal.out(
        keyValues([
            ("Title", appointment.title), ("Status", appointment.status.rawValue),
            ("Start", Format.time(appointment.appointmentDate, timeZone: nil, withDate: true)),
            ("Duration", "\(appointment.durationMinutes) min"), ("Type", appointment.appointmentType),
            ("Description", appointment.description ?? "-"), ("Notes", appointment.notes ?? "-"),
            ("Vet", appointment.assignedVetUserId ?? "-"), ("Owner", appointment.petOwnerId), ("Id", appointment.id),
        ]))
    Terminal.out("")
    printPets(appointment.pets)
}

func printPets(_ pets: [PetSummary]) {
    var table = Table("PET", "NAME", "SPECIES", "BREED", "RECORDING")
    for pet in pets {
        let recording = pet.recording.map { "\($0.visitId) (\($0.state.rawValue))" } ?? "-"
        table.add(pet.id, pet.name, pet.species, pet.breed ?? "-", recording)
    }
    Terminal.out(table.render())
}
