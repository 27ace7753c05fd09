import ArgumentParser
import AutoDetailKit
import CLISupport
import Foundation

struct AdminSettingsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "settings", abstract: "Studio settings: name, zone, hours, slot step, capacity, window, lead time.",
        subcommands: [Show.self, Update.self], defaultSubcommand: Show.self)

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show the settings.")
        @OptionGroup var global: GlobalOptions

        func run() async throws {
            let settings = try await global.makeClient().settings()
            if global.json { return try global.printJSON(settings) }
            printSettings(settings)
        }
    }

    struct Update: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Change settings (only the options given; later bookings only).",
            discussion: "--hours takes DAY=HH:mm-HH:mm or DAY=closed, DAY one of mon…sun or all; repeat it, later ones win.")
        @OptionGroup var global: GlobalOptions
        @Option(name: .long, help: "Studio name.") var studioName: String?
        @Option(name: .long, help: "IANA time zone, e.g. Europe/Moscow.") var timezone: String?
        @Option(name: .long, help: "Opening hours of a day, e.g. sat=10:00-18:00 or sun=closed.") var hours: [String] = []
        @Option(name: .long, help: "Minutes between slot starts (5-240).") var slotStep: Int?
        @Option(name: .long, help: "Bays working in parallel (1-20).") var capacity: Int?
        @Option(name: .long, help: "Days ahead that can be booked (1-365).") var bookingWindow: Int?
        @Option(name: .long, help: "Minutes between now and the earliest bookable start.") var leadTime: Int?
        @Option(name: .long, help: "Where a forgotten console password's reset link goes (\"\" removes it).")
        var adminEmail: String?

        func validate() throws {
            _ = try Self.parseHours(hours)
            if studioName == nil && timezone == nil && hours.isEmpty && slotStep == nil && capacity == nil
                && bookingWindow == nil && leadTime == nil && adminEmail == nil
            {
                throw ValidationError("Nothing to update: give at least one option (see --help)")
            }
        }

        /// `[day: hours or nil (closed)]` in the order given.
        static func parseHours(_ specs: [String]) throws -> [(String, DayHours?)] {
            try specs.map { spec in
                let parts = spec.split(separator: "=", maxSplits: 1).map(String.init)
                guard parts.count == 2, parts[0] == "all" || StudioSettings.weekdays.contains(parts[0]) else {
                    throw ValidationError("--hours must look like mon=09:00-21:00 or sun=closed, got '\(spec)'")
                }
                if parts[1] == "closed" { return (parts[0], nil) }
                let times = parts[1].split(separator: "-").map(String.init)
                guard times.count == 2, times.allSatisfy({ $0.count == 5 && $0.dropFirst(2).first == ":" }) else {
                    throw ValidationError("--hours must look like mon=09:00-21:00 or sun=closed, got '\(spec)'")
                }
                return (parts[0], DayHours(open: times[0], close: times[1]))
            }
        }

        func run() async throws {
            let client = global.makeClient()
            var update = SettingsUpdateRequest(
                studioName: studioName, timezone: timezone, slotStepMinutes: slotStep, capacity: capacity,
                bookingWindowDays: bookingWindow, leadTimeMinutes: leadTime, adminEmail: adminEmail)
            let changes = try Self.parseHours(hours)
            if !changes.isEmpty {
                // The server replaces all seven days at once: start from the current week and apply the changes.
                var week = try await client.settings().workingHours
                for (day, value) in changes {
                    for key in day == "all" ? StudioSettings.weekdays : [day] { week[key] = .some(value) }
                }
                update.workingHours = week
            }
            let settings = try await client.updateSettings(update)
            if global.json { return try global.printJSON(settings) }
            printSettings(settings)
        }
    }
}

func printSettings(_ s: StudioSettings) {
    var pairs: [(String, String)] = [
        ("Studio", s.studioName), ("Time zone", s.timezone), ("Slot step", "\(s.slotStepMinutes) min"),
        ("Capacity", "\(s.capacity) bays"), ("Booking window", "\(s.bookingWindowDays) days"),
        ("Lead time", "\(s.leadTimeMinutes) min"), ("Admin email", s.adminEmail ?? "none"),
    ]
    for day in StudioSettings.weekdays {
        let hours = (s.workingHours[day] ?? nil).map { "\($0.open)–\($0.close)" } ?? "closed"
        pairs.append((day, hours))
    }
    pairs.append(("Updated", Format.instant(s.updatedAt)))
    Terminal.out(keyValues(pairs))
}
