import ArgumentParser
import AutoDetailKit
import CLISupport
import Foundation

struct BookCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "book", abstract: "Book a slot (its START from `autodetail slots`).")

    @OptionGroup var global: GlobalOptions

    @Option(name: .long, help: "Service id, or its exact name (e.g. \"Car Washing\").")
    var service: String

    @Option(name: .long, help: "Slot start as printed by `slots`, e.g. 2025-03-14T08:00:00Z.")
    var slot: String

    @Option(name: .long, help: "Client name.") var name: String
    @Option(name: .long, help: "Phone, e.g. +79161234567.") var phone: String
    @Option(name: .long, help: "Car make and model.") var carMake: String
    @Option(name: .long, help: "Car plate.") var carPlate: String
    @Option(name: .long, help: "Telegram handle.") var telegram: String?
    @Option(name: .long, help: "Notes for the studio.") var notes: String?

    @Option(name: .long, help: "Idempotency-Key: repeating the command with the same key never books twice.")
    var idempotencyKey: String?

    func validate() throws {
        guard ISO8601DateFormatter().date(from: slot) != nil else {
            throw ValidationError("--slot must be a slot start such as 2025-03-14T08:00:00Z (see `autodetail slots`), got '\(slot)'")
        }
        if service.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("--service must not be empty") }
    }

    func run() async throws {
        let isId = UUID(uuidString: service) != nil
        let booking = BookingRequest(
            startIso: slot, clientName: name, phone: phone, carMake: carMake, carPlate: carPlate,
            serviceName: isId ? nil : service, serviceId: isId ? service.lowercased() : nil, notes: notes ?? "",
            telegram: telegram)
        let appointment = try await global.makeClient().book(booking, idempotencyKey: idempotencyKey)
        if global.json { return try global.printJSON(appointment) }
        Terminal.out("Booked \(appointment.id): \(appointment.serviceName), \(Format.instant(appointment.startIso)) (\(appointment.status)).")
    }
}

struct ShowCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "show", abstract: "Show a booking and its photos.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "Appointment id.") var id: String

    func validate() throws { try Check.id(id, what: "The appointment id") }

    func run() async throws {
        let appointment = try await global.makeClient().appointment(id: id)
        if global.json { return try global.printJSON(appointment) }
        printAppointment(appointment)
    }
}

struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "Your bookings, latest first.")

    @OptionGroup var global: GlobalOptions
    @Option(name: .long, help: "Only this status (new, confirmed, in_progress, done, cancelled).") var status: AppointmentStatus?
    @Option(name: .long, help: "Only this phone number.") var phone: String?
    @Option(name: .long, help: "At most this many (1-200).") var limit: Int?
    @Option(name: .long, help: "Skip this many.") var offset: Int?

    func validate() throws {
        if let limit, !(1...200).contains(limit) { throw ValidationError("--limit must be between 1 and 200") }
        if let offset, offset < 0 { throw ValidationError("--offset must not be negative") }
    }

    func run() async throws {
        let page = try await global.makeClient().appointments(status: status, phone: phone, limit: limit, offset: offset)
        if global.json { return try global.printJSON(page.items) }
        guard !page.items.isEmpty else { return Terminal.out("No bookings.") }
        printAppointments(page.items)
        if let total = page.totalCount, total > page.items.count { Terminal.out("(\(page.items.count) of \(total); use --offset)") }
    }
}

struct CancelCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "cancel", abstract: "Cancel a booking before it starts.")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "Appointment id.") var id: String

    func validate() throws { try Check.id(id, what: "The appointment id") }

    func run() async throws {
        let appointment = try await global.makeClient().cancelAppointment(id: id)
        if global.json { return try global.printJSON(appointment) }
        Terminal.out("Appointment \(appointment.id) is \(appointment.status).")
    }
}

func printAppointments(_ appointments: [Appointment]) {
    var table = Table("START", "STATUS", "SERVICE", "CLIENT", "PLATE", "PHOTOS", "ID")
    for a in appointments {
        table.add(
            Format.instant(a.startIso), a.status, Format.truncate(a.serviceName, 28), Format.truncate(a.clientName, 24),
            a.carPlate ?? "-", "\(a.workPhotos.count + a.defectPhotos.count)", a.id)
    }
    Terminal.out(table.render())
}

func printAppointment(_ a: Appointment) {
    var pairs: [(String, String)] = [
        ("Service", a.serviceName + (a.priceRub.map { ", " + Format.rub($0) } ?? "")), ("Status", a.status),
        ("Start", Format.instant(a.startIso)), ("End", a.endIso.map { Format.instant($0) } ?? "-"),
        ("Client", a.clientName), ("Phone", a.phone ?? "-"), ("Telegram", a.telegram ?? "-"),
        ("Car", [a.carMake, a.carPlate].compactMap { $0 }.joined(separator: ", ")), ("Notes", a.notes ?? "-"),
        ("Source", a.source), ("Id", a.id),
    ]
    if let install = a.installId { pairs.append(("Install", install)) }
    Terminal.out(keyValues(pairs))
    for (title, photos) in [("Work photos", a.workPhotos), ("Defect photos", a.defectPhotos)] where !photos.isEmpty {
        Terminal.out("")
        Terminal.out("\(title) (links valid 1 hour):")
        for photo in photos { Terminal.out("  \(photo.id)  \(photo.url)") }
    }
}
