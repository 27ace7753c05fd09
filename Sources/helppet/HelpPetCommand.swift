import ArgumentParser
import Foundation
import HelpPetKit

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `helppet`: the HelpPet vet app for a terminal, built on HelpPetKit.
///
/// Exit codes: 0 success, 1 API or runtime error (message on stderr), 2 usage error.
@main
struct HelpPetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "helppet",
        abstract: "The HelpPet vet app for a terminal: today's schedule, pets, records, and one recording per pet.",
        discussion: """
            Log in once (the token is kept in $XDG_CONFIG_HOME/helppet or ~/.config/helppet, mode 0600), then:
              helppet today
              helppet appointment start APPOINTMENT_ID
              helppet record --appointment APPOINTMENT_ID --pet PET_ID bella.m4a
            The server is --server, $HELPPET_SERVER, or http://127.0.0.1:8080.
            Exit codes: 0 ok, 1 API error (message printed), 2 usage error.
            """,
        version: "1.0.0",
        subcommands: [
            LoginCommand.self, LogoutCommand.self, WhoAmICommand.self, TodayCommand.self, AppointmentCommand.self,
            PetCommand.self, RecordsCommand.self, TranscriptsCommand.self, RecordCommand.self, RecordAllCommand.self,
            PlayCommand.self, DownloadCommand.self, WaitCommand.self,
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
        } catch let error as HelpPetError {
            Terminal.error(CLIMessages.describe(error))
            status = 1
        } catch let error as CLIFailure {
            Terminal.error(error.message)
            status = 1
        } catch let error as ExitCode {
            status = error.rawValue
        } catch {
            if exitCode(for: error) == .success {
                // --help, --version
                print(fullMessage(for: error))
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

/// Lets the global options come before the subcommand (`helppet --json today`, `helppet --server URL login`): the
/// options that precede the first subcommand word are moved to the end (before a `--`, if any), where every
/// subcommand accepts them.
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

/// A runtime failure that is not an API error (a local file, a timeout): exit code 1.
struct CLIFailure: Error {
    let message: String
    init(_ message: String) { self.message = message }
}

enum CLIMessages {
    static func describe(_ error: HelpPetError) -> String {
        switch error {
        case let .unauthorized(detail):
            return "\(detail). Run `helppet login` first."
        default:
            return error.description
        }
    }
}
