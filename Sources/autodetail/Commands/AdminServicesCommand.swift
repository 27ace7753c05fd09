import ArgumentParser
import AutoDetailKit
import CLISupport
import Foundation

struct AdminServicesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "services", abstract: "The catalogue, inactive services included.",
        subcommands: [List.self, Create.self, Update.self, Delete.self], defaultSubcommand: List.self)

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List services.")
        @OptionGroup var global: GlobalOptions
        @Option(name: .long, help: "true: only active; false: only deleted.") var active: Bool?

        func run() async throws {
            let services = try await global.makeClient().adminServices(active: active)
            if global.json { return try global.printJSON(services) }
            guard !services.isEmpty else { return Terminal.out("No services.") }
            printServices(services, showActive: true)
        }
    }

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create a service.")
        @OptionGroup var global: GlobalOptions
        @Option(name: .long, help: "Name, unique among active services.") var name: String
        @Option(name: .long, help: "Price in roubles.") var price: Int
        @Option(name: .long, help: "Duration in minutes (15-720, a multiple of 5): the slot length.") var duration: Int
        @Option(name: .long, help: "Description.") var description: String?
        @Option(name: .long, help: "Image URL (http or https).") var imageUrl: String?
        @Flag(name: .long, help: "Create it inactive (hidden).") var inactive = false

        func run() async throws {
            let service = try await global.makeClient().createService(
                ServiceCreateRequest(
                    name: name, description: description, priceRub: price, durationMinutes: duration, imageUrl: imageUrl,
                    active: inactive ? false : nil))
            if global.json { return try global.printJSON(service) }
            Terminal.out("Created service \(service.id): \(service.name), \(Format.rub(service.priceRub)), \(service.durationMinutes) min.")
        }
    }

    struct Update: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Change a service (only the options given).")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Service id.") var id: String
        @Option(name: .long, help: "New name.") var name: String?
        @Option(name: .long, help: "New price in roubles.") var price: Int?
        @Option(name: .long, help: "New duration in minutes.") var duration: Int?
        @Option(name: .long, help: "New description (\"\" clears it).") var description: String?
        @Option(name: .long, help: "New image URL.") var imageUrl: String?
        @Flag(name: .long, help: "Remove the image.") var clearImage = false
        @Option(name: .long, help: "true re-activates, false hides.") var active: Bool?

        var update: ServiceUpdateRequest {
            ServiceUpdateRequest(
                name: name, description: description.map { .set($0) } ?? .unchanged, priceRub: price,
                durationMinutes: duration, imageUrl: clearImage ? .clear : (imageUrl.map { .set($0) } ?? .unchanged),
                active: active)
        }

        func validate() throws {
            try Check.id(id, what: "The service id")
            if clearImage && imageUrl != nil { throw ValidationError("--clear-image cannot be combined with --image-url") }
            if update.isEmpty { throw ValidationError("Nothing to update: give at least one of --name, --price, --duration, --description, --image-url, --clear-image, --active") }
        }

        func run() async throws {
            let service = try await global.makeClient().updateService(id: id, update)
            if global.json { return try global.printJSON(service) }
            Terminal.out("Updated service \(service.id): \(service.name), \(Format.rub(service.priceRub)), \(service.durationMinutes) min.")
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Hide a service (soft delete; bookings keep it).")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Service id.") var id: String
        func validate() throws { try Check.id(id, what: "The service id") }

        func run() async throws {
            try await global.makeClient().deleteService(id: id)
            if global.json { return try global.printJSON(["id": id, "status": "deleted"]) }
            Terminal.out("Service \(id) is no longer offered.")
        }
    }
}
