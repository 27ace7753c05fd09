import CLISupport
import Foundation
import HelpPetKit

/// `helppet`'s identity for the shared options: its config folder and `$HELPPET_SERVER`.
enum HelpPetCLI: CLIIdentity {
    static let commandName = "helppet"
    static let serverVariable = "HELPPET_SERVER"
}

/// Options every command accepts (`--server`, `--json`; see CLISupport's ``CLIGlobalOptions``).
typealias GlobalOptions = CLIGlobalOptions<HelpPetCLI>

extension CLIGlobalOptions where CLI == HelpPetCLI {
    /// A client for `serverURL` whose token lives in the config folder (one entry per server).
    func makeClient() -> HelpPetClient {
        let store = FileTokenStore(
            fileURL: Self.configDirectory.appendingPathComponent("token.json"), account: serverURL)
        return HelpPetClient(baseURL: URL(string: serverURL)!, tokenStore: store)
    }

    /// Prints `value` as pretty JSON (sorted keys, the API's snake_case) on stdout.
    func printJSON(_ value: some Encodable) throws {
        try printJSON(value, encoder: HelpPetCoding.makeEncoder(pretty: true))
    }
}
