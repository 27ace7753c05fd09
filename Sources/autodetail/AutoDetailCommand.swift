import ArgumentParser
import CLISupport
import AutoDetailKit
import Foundation

/// `autodetail`: the AutoDetail Hub customer app and the studio console for a terminal, built on AutoDetailKit.
///
/// Exit codes: 0 success, 1 API or runtime error (message on stderr), 2 usage error.
@main
struct AutoDetailCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "autodetail",
        abstract: "AutoDetail Hub from a terminal: services, slots, bookings, photos; and the studio console (admin).",
        discussion: """
            Get an install key once (kept in $XDG_CONFIG_HOME/autodetail or ~/.config/autodetail, mode 0600), then:
              autodetail services
              autodetail slots --service SERVICE_ID --date 2025-03-14
              autodetail book --service "Car Washing" --slot 2025-03-14T08:00:00Z \\
                --name "Ivan Petrov" --phone +79161234567 \\
                --car-make "Toyota Camry" --car-plate "A123BC 777"
              autodetail photo add APPOINTMENT_ID --kind defect scratch.jpg
            The server is --server, $AUTODETAIL_SERVER, or http://127.0.0.1:8080.
            Exit codes: 0 ok, 1 API error (message printed), 2 usage error.
            """,
        version: "1.0.0",
        subcommands: [
            InitCommand.self, ServicesCommand.self, SlotsCommand.self, BookCommand.self, ShowCommand.self,
            ListCommand.self, CancelCommand.self, PhotoCommand.self, ProfileCommand.self, MessagesCommand.self,
            AdminCommand.self,
        ]
    )

    /// Parses, runs, and maps every outcome to the documented exit codes (see ``CommandLineMain``).
    static func main() async {
        await CommandLineMain.run(Self.self) { error in (error as? AutoDetailError).map(CLIMessages.describe) }
    }
}

/// The kit's errors in words, with what to run next where the answer is obvious.
enum CLIMessages {
    /// The error in words, with what to run next where the answer is obvious.
    static func describe(_ error: AutoDetailError) -> String {
        guard case let .unauthorized(message) = error else { return error.description }
        if message.hasPrefix("Not logged in as admin") { return "Not logged in as admin. Run `autodetail admin login` first." }
        if message.hasPrefix("No API key") { return "No API key for this server. Run `autodetail init` first." }
        if message.localizedCaseInsensitiveContains("admin token") {
            return "\(message). Run `autodetail admin login` again."
        }
        if message.localizedCaseInsensitiveContains("API key") {
            return "\(message). Run `autodetail init --force` (new install key) or `autodetail init --force --key KEY`."
        }
        return error.description
    }
}
