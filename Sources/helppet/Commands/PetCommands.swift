import ArgumentParser
import CLISupport
import Foundation
import HelpPetKit

struct PetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pet", abstract: "Pet details.", subcommands: [Show.self])

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show a pet and its owner.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Pet id.") var id: String

        func run() async throws {
            let pet = try await global.makeClient().pet(id: id)
            if global.json { return try global.printJSON(pet) }
            Terminal.out(
                keyValues([
                    ("Name", pet.name), ("Species", pet.species), ("Breed", pet.breed ?? "-"), ("Color", pet.color ?? "-"),
                    ("Gender", pet.gender ?? "-"), ("Born", pet.dateOfBirth ?? "-"),
                    ("Weight", pet.weight.map { String(format: "%.1f lb", $0) } ?? "-"),
                    ("Microchip", pet.microchipNumber ?? "-"), ("Allergies", pet.allergies ?? "-"),
                    ("Active", pet.isActive ? "yes" : "no"), ("Registered", pet.registrationDate),
                    ("Owner", "\(pet.owner.fullName) <\(pet.owner.email)>\(pet.owner.phone.map { " " + $0 } ?? "")"),
                    ("Id", pet.id),
                ]))
        }
    }
}

struct RecordsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "records", abstract: "A pet's medical records (every version with --history).")

    @OptionGroup var global: GlobalOptions
    @Argument(help: "Pet id.") var pet: String
    @Flag(name: .long, help: "Every version of every record, grouped by record.") var history = false

    func run() async throws {
        let client = global.makeClient()
        let response = history
            ? try await client.medicalRecordHistory(petId: pet)
            : try await client.medicalRecords(petId: pet, includeHistorical: false)
        if global.json { return try global.printJSON(response) }
        Terminal.out(
            "\(response.total) record\(response.total == 1 ? "" : "s") (\(response.currentRecordsCount) current, "
                + "\(response.historicalRecordsCount) historical)")
        guard !response.records.isEmpty else { return }
        var table = Table("CREATED", "TYPE", "TITLE", "VERSION", "CURRENT", "RECORD")
        for record in response.records {
            table.add(
                Format.time(record.createdAt, timeZone: nil, withDate: true), record.recordType,
                Format.truncate(record.title, 40), record.version.map(String.init) ?? "-", record.isCurrent ? "yes" : "no",
                record.id)
        }
        Terminal.out(table.render())
    }
}

struct TranscriptsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "transcripts", abstract: "Visits (recordings and transcripts) of a pet or of an appointment.")

    @OptionGroup var global: GlobalOptions
    @Option(name: .long, help: "Pet id.") var pet: String?
    @Option(name: .long, help: "Appointment id.") var appointment: String?
    @Flag(name: .long, help: "Include visits whose upload has not arrived yet.") var includePending = false

    func validate() throws {
        if (pet == nil) == (appointment == nil) { throw ValidationError("Give exactly one of --pet ID or --appointment ID") }
    }

    func run() async throws {
        let client = global.makeClient()
        let visits: [VisitTranscript]
        if let pet {
            visits = try await client.visitTranscripts(petId: pet, includePending: includePending)
        } else {
            visits = try await client.visitTranscripts(appointmentId: appointment!, includePending: includePending)
        }
        if global.json { return try global.printJSON(visits) }
        guard !visits.isEmpty else { return Terminal.out("No visits.") }
        var table = Table("VISIT", "PET", "DATE", "STATE", "AUDIO", "TEXT")
        for visit in visits {
            table.add(
                visit.uuid, visit.petId, Format.time(visit.visitDate, timeZone: nil, withDate: true), visit.state.rawValue,
                visit.fileSizeBytes.map { Format.bytes(Int64($0)) } ?? (visit.storageKey != nil ? "pending" : "-"),
                visit.fullText.isEmpty ? "-" : Format.truncate(visit.fullText, 40))
        }
        Terminal.out(table.render())
    }
}
