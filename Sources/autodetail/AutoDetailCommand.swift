import ArgumentParser
import AutoDetailKit
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

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

    /// Parses, runs, and maps every outcome to the documented exit codes.
    static func main() async {
        let status: Int32
        do {
            var command = try parseAsRoot(hoistingGlobalOptions(Array(CommandLine.arguments.dropFirst())))
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
            status = 0
        } catch let error as AutoDetailError {
            Terminal.error(CLIMessages.describe(error))
            status = 1
        } catch let error as CLIFailure {
            Terminal.error(error.message)
            status = 1
        } catch let error as ExitCode {
            status = error.rawValue
        } catch {
            if exitCode(for: error) == .success {
                print(fullMessage(for: error))  // --help, --version
                status = 0
            } else {
                Terminal.note(fullMessage(for: error))
                status = 2
            }
        }
        Terminal.flush()
        #if canImport(Glibc)
            Glibc.exit(status)
        #else
            Darwin.exit(status)
        #endif
    }
}

/// Lets the global options come before the subcommand (`autodetail --json services`): the options that precede the
/// first subcommand word are moved to the end (before a `--`, if any), where every subcommand accepts them.
func hoistingGlobalOptions(_ arguments: [String]) -> [String] {
    var leading: [String] = []
    var index = 0
    while index < arguments.count {
        let argument = arguments[index]
        if argument == "--json" || argument.hasPrefix("--server=") {
            leading.append(argument)
            index += 1
        } else if argument == "--server", index + 1 < arguments.count {
            leading += [argument, arguments[index + 1]]
            index += 2
        } else {
            break
        }
    }
    guard !leading.isEmpty, index < arguments.count else { return arguments }
    var rest = Array(arguments[index...])
    if let separator = rest.firstIndex(of: "--") {
        rest.insert(contentsOf: leading, at: separator)
    } else {
        rest += leading
    }
    return rest
}

/// A runtime failure that is not an API error (a local file, a missing key): exit code 1.
struct CLIFailure: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

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
