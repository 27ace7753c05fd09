import ArgumentParser
import AutoDetailKit
import CLISupport
import Foundation

struct ProfileCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile", abstract: "Your install's profile (install keys only).",
        subcommands: [Show.self, Set.self], defaultSubcommand: Show.self)

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show the profile.")
        @OptionGroup var global: GlobalOptions

        func run() async throws {
            let profile = try await global.makeClient().profile()
            if global.json { return try global.printJSON(profile) }
            printProfile(profile)
        }
    }

    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create or replace the profile (optional fields left out are cleared).")
        @OptionGroup var global: GlobalOptions
        @Option(name: .long, help: "Your name.") var name: String
        @Option(name: .long, help: "Car make and model.") var carMake: String
        @Option(name: .long, help: "Car plate.") var carPlate: String
        @Option(name: .long, help: "Phone.") var phone: String?
        @Option(name: .long, help: "Telegram handle.") var telegram: String?
        @Option(name: .long, help: "https URL or preset:NAME.") var photo: String?

        func run() async throws {
            let profile = try await global.makeClient().updateProfile(
                ProfileRequest(name: name, carMake: carMake, carPlate: carPlate, phone: phone, telegram: telegram, profilePhotoUrl: photo))
            if global.json { return try global.printJSON(profile) }
            printProfile(profile)
        }
    }
}

func printProfile(_ p: InstallProfile) {
    Terminal.out(
        keyValues([
            ("Name", p.name ?? "-"), ("Car", [p.carMake, p.carPlate].compactMap { $0 }.joined(separator: ", ").ifEmpty("-")),
            ("Phone", p.phone ?? "-"), ("Telegram", p.telegram ?? "-"), ("Photo", p.profilePhotoUrl ?? "-"),
            ("Unread messages", "\(p.unreadMessages)"), ("Install", p.id),
        ]))
}

extension String {
    func ifEmpty(_ replacement: String) -> String { isEmpty ? replacement : self }
}

struct MessagesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "messages", abstract: "Messages from the studio (install keys only).",
        subcommands: [List.self, Read.self], defaultSubcommand: List.self)

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List messages, newest first.")
        @OptionGroup var global: GlobalOptions
        @Flag(name: .long, help: "Only unread messages.") var unread = false

        func run() async throws {
            let list = try await global.makeClient().messages(unreadOnly: unread)
            if global.json { return try global.printJSON(list) }
            Terminal.out("\(list.unreadCount) unread.")
            guard !list.messages.isEmpty else { return }
            var table = Table("SENT", "READ", "TEXT", "ID")
            for m in list.messages {
                table.add(Format.instant(m.createdAt), m.read ? "yes" : "no", Format.truncate(m.text, 60), m.id)
            }
            Terminal.out(table.render())
        }
    }

    struct Read: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Mark a message read.")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Message id.") var id: String

        func validate() throws { try Check.id(id, what: "The message id") }

        func run() async throws {
            let message = try await global.makeClient().markMessageRead(id: id)
            if global.json { return try global.printJSON(message) }
            Terminal.out(message.text)
        }
    }
}
