import ArgumentParser
import CLISupport
import Foundation
import HelpPetKit

/// Options every command accepts.
struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Server URL (default: $HELPPET_SERVER or http://127.0.0.1:8080).", valueName: "url"))
    var server: String?

    @Flag(name: .long, help: "Print machine-readable JSON instead of tables.")
    var json = false

    /// The server URL, without trailing slash.
    var serverURL: String { ServerOptions.serverURL(option: server, environmentVariable: "HELPPET_SERVER") }

    func validate() throws { try ServerOptions.validate(serverURL: serverURL) }

    /// The folder of the token file: `$XDG_CONFIG_HOME/helppet` or `~/.config/helppet`.
    static var configDirectory: URL { ServerOptions.configDirectory(app: "helppet") }

    /// A client for `serverURL` whose token lives in the config folder (one entry per server).
    func makeClient() -> HelpPetClient {
        let store = FileTokenStore(
            fileURL: Self.configDirectory.appendingPathComponent("token.json"), account: serverURL)
        return HelpPetClient(baseURL: URL(string: serverURL)!, tokenStore: store)
    }

    /// Prints `value` as pretty JSON (sorted keys, the API's snake_case) on stdout.
    func printJSON(_ value: some Encodable) throws {
        try ServerOptions.printJSON(value, encoder: HelpPetCoding.makeEncoder(pretty: true))
    }
}
