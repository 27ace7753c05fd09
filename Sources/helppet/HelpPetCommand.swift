import ArgumentParser
import CLISupport
import Foundation
import HelpPetKit

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

    /// Parses, runs, and maps every outcome to the documented exit codes (see ``CommandLineMain``).
    static func main() async {
        await CommandLineMain.run(Self.self) { error in (error as? HelpPetError).map(CLIMessages.describe) }
    }
}

/// The kit's errors in words, with what to run next where the answer is obvious.
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
