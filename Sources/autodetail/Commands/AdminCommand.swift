import ArgumentParser
import AutoDetailKit
import CLISupport
import Foundation

struct AdminCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "admin", abstract: "The studio console: keys, bookings, services, settings (admin token).",
        subcommands: [
            AdminLoginCommand.self, AdminLogoutCommand.self, AdminKeysCommand.self, AdminBookingsCommand.self,
            AdminBookingCommand.self, AdminServicesCommand.self, AdminSettingsCommand.self,
        ])
}

struct AdminLoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login", abstract: "Log in as the studio admin; the token (12 h) is kept in the config folder.")

    @OptionGroup var global: GlobalOptions
    @Option(name: .long, help: "User name.") var username = "admin"
    @Flag(name: .long, help: "Read the password from the first line of stdin instead of prompting (no echo).")
    var passwordStdin = false

    func run() async throws {
        let password: String
        if passwordStdin {
            guard let line = readLine(strippingNewline: true), !line.isEmpty else {
                throw ValidationError("--password-stdin: stdin is empty")
            }
            password = line
        } else {
            guard let secret = Terminal.readSecret("Password for \(username): ") else {
                throw ValidationError("No terminal to prompt for the password: use --password-stdin")
            }
            password = secret
        }
        let login = try await global.makeClient().adminLogin(username: username, password: password)
        if global.json {
            return try global.printJSON(["server": global.serverURL, "username": username, "expiresAt": login.expiresAt])
        }
        Terminal.out("Logged in to \(global.serverURL) as \(username) until \(Format.instant(login.expiresAt)).")
    }
}

struct AdminLogoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(commandName: "logout", abstract: "Revoke and forget the admin token.")
    @OptionGroup var global: GlobalOptions

    func run() async throws {
        try await global.makeClient().adminLogout()
        if global.json { return try global.printJSON(["server": global.serverURL, "status": "logged_out"]) }
        Terminal.out("Logged out of \(global.serverURL).")
    }
}

struct AdminKeysCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "keys", abstract: "Organisation API keys.", subcommands: [Create.self, List.self, Revoke.self],
        defaultSubcommand: List.self)

    struct Create: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Create a key; the full key is printed this once.")
        @OptionGroup var global: GlobalOptions
        @Option(name: .long, help: "What the key is for.") var name: String
        @Flag(name: .long, help: "Let the key see every appointment (trusted servers only).") var fullAccess = false

        func run() async throws {
            let key = try await global.makeClient().createAPIKey(name: name, fullAccess: fullAccess)
            if global.json { return try global.printJSON(key) }
            Terminal.out("Created key \(key.id) \"\(key.name)\"\(key.fullAccess ? " (full access)" : ""). Copy it now, it is never shown again:")
            Terminal.out(key.key ?? "-")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List keys, newest first.")
        @OptionGroup var global: GlobalOptions
        @Option(name: .long, help: "true: only revoked keys; false: only live keys.") var revoked: Bool?

        func run() async throws {
            let page = try await global.makeClient().apiKeys(revoked: revoked, limit: 200)
            if global.json { return try global.printJSON(page.items) }
            guard !page.items.isEmpty else { return Terminal.out("No keys.") }
            var table = Table("PREFIX", "NAME", "FULL", "USES", "LAST USED", "REVOKED", "ID")
            for k in page.items {
                table.add(
                    k.keyPrefix, Format.truncate(k.name, 30), k.fullAccess ? "yes" : "no", "\(k.requestCount)",
                    k.lastUsedAt.map { Format.instant($0) } ?? "-", k.revoked ? "yes" : "no", k.id)
            }
            Terminal.out(table.render())
        }
    }

    struct Revoke: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Revoke a key for good (next request: 401).")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Key id (from `admin keys list`).") var id: String

        func validate() throws { try Check.id(id, what: "The key id") }

        func run() async throws {
            try await global.makeClient().revokeAPIKey(id: id)
            if global.json { return try global.printJSON(["id": id, "status": "revoked"]) }
            Terminal.out("Key \(id) is revoked.")
        }
    }
}

struct AdminBookingsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bookings", abstract: "All bookings, earliest first (one studio-local day with --date).")

    @OptionGroup var global: GlobalOptions
    @Option(name: .long, help: "Studio-local date YYYY-MM-DD.") var date: String?
    @Option(name: .long, help: "Only this status.") var status: AppointmentStatus?
    @Option(name: .long, help: "Substring of client name, plate, phone or service.") var search: String?
    @Option(name: .long, help: "At most this many (1-200).") var limit = 200

    func validate() throws {
        if let date { try Check.date(date, option: "--date") }
        if !(1...200).contains(limit) { throw ValidationError("--limit must be between 1 and 200") }
    }

    func run() async throws {
        let page = try await global.makeClient().adminAppointments(date: date, status: status, search: search, limit: limit)
        if global.json { return try global.printJSON(page.items) }
        guard !page.items.isEmpty else { return Terminal.out("No bookings.") }
        printAppointments(page.items)
        if let total = page.totalCount, total > page.items.count { Terminal.out("(\(page.items.count) of \(total))") }
    }
}

struct AdminBookingCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "booking", abstract: "Show a booking or move it along: confirm, start, done, cancel.",
        subcommands: [Show.self, Confirm.self, Start.self, Done.self, Cancel.self])

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show a booking (admin view).")
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Appointment id.") var id: String
        func validate() throws { try Check.id(id, what: "The appointment id") }

        func run() async throws {
            let appointment = try await global.makeClient().adminAppointment(id: id)
            if global.json { return try global.printJSON(appointment) }
            printAppointment(appointment)
        }
    }

    struct Confirm: AsyncParsableCommand, StatusChange {
        static let configuration = CommandConfiguration(abstract: "new → confirmed.")
        static let target = AppointmentStatus.confirmed
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Appointment id.") var id: String
        func validate() throws { try Check.id(id, what: "The appointment id") }
        func run() async throws { try await change() }
    }

    struct Start: AsyncParsableCommand, StatusChange {
        static let configuration = CommandConfiguration(abstract: "confirmed → in_progress.")
        static let target = AppointmentStatus.inProgress
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Appointment id.") var id: String
        func validate() throws { try Check.id(id, what: "The appointment id") }
        func run() async throws { try await change() }
    }

    struct Done: AsyncParsableCommand, StatusChange {
        static let configuration = CommandConfiguration(abstract: "in_progress → done.")
        static let target = AppointmentStatus.done
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Appointment id.") var id: String
        func validate() throws { try Check.id(id, what: "The appointment id") }
        func run() async throws { try await change() }
    }

    struct Cancel: AsyncParsableCommand, StatusChange {
        static let configuration = CommandConfiguration(abstract: "new or confirmed → cancelled (any time).")
        static let target = AppointmentStatus.cancelled
        @OptionGroup var global: GlobalOptions
        @Argument(help: "Appointment id.") var id: String
        func validate() throws { try Check.id(id, what: "The appointment id") }
        func run() async throws { try await change() }
    }
}

/// The four status commands differ only in their target status.
protocol StatusChange {
    static var target: AppointmentStatus { get }
    var global: GlobalOptions { get }
    var id: String { get }
}

extension StatusChange {
    func change() async throws {
        let appointment = try await global.makeClient().setAppointmentStatus(id: id, to: Self.target)
        if global.json { return try global.printJSON(appointment) }
        Terminal.out("Appointment \(appointment.id) is \(appointment.status).")
    }
}
