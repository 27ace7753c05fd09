import ArgumentParser
import AutoDetailKit
import CLISupport
import Foundation

struct ServicesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "services", abstract: "The studio's services.")

    @OptionGroup var global: GlobalOptions

    func run() async throws {
        let services = try await global.makeClient().services()
        if global.json { return try global.printJSON(services) }
        guard !services.isEmpty else { return Terminal.out("No services.") }
        printServices(services, showActive: false)
    }
}

func printServices(_ services: [Service], showActive: Bool) {
    var table = showActive ? Table("NAME", "PRICE", "DURATION", "ACTIVE", "ID") : Table("NAME", "PRICE", "DURATION", "ID")
    for service in services {
        if showActive {
            table.add(
                Format.truncate(service.name, 40), Format.rub(service.priceRub), "\(service.durationMinutes) min",
                service.active == false ? "no" : "yes", service.id)
        } else {
            table.add(Format.truncate(service.name, 40), Format.rub(service.priceRub), "\(service.durationMinutes) min", service.id)
        }
    }
    Terminal.out(table.render())
}

struct SlotsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "slots", abstract: "The slots of a service on a studio-local date; book one with its START.")

    @OptionGroup var global: GlobalOptions

    @Option(name: .long, help: "Service id (from `autodetail services`).")
    var service: String

    @Option(name: .long, help: "Studio-local date, YYYY-MM-DD.")
    var date: String

    @Flag(name: .long, help: "Show only the slots that can be booked.")
    var available = false

    func validate() throws {
        try Check.id(service, what: "--service")
        try Check.date(date, option: "--date")
    }

    func run() async throws {
        let availability = try await global.makeClient().availability(serviceId: service, date: date)
        if global.json { return try global.printJSON(availability) }
        guard let hours = availability.workingHours else {
            return Terminal.out("\(availability.date): the studio is closed (\(availability.timezone)).")
        }
        let slots = available ? availability.availableSlots : availability.slots
        Terminal.out(
            "\(availability.date) \(hours.open)–\(hours.close) \(availability.timezone): \(availability.availableSlots.count) of "
                + "\(availability.slots.count) slots free, \(availability.durationMinutes) min each")
        guard !slots.isEmpty else { return }
        var table = Table("LOCAL", "START", "FREE", "STATUS")
        for slot in slots {
            table.add(
                "\(slot.startTime)–\(slot.endTime)", slot.startIso, "\(slot.remaining)",
                slot.available ? "available" : (slot.unavailableReason ?? "unavailable"))
        }
        Terminal.out("")
        Terminal.out(table.render())
    }
}
