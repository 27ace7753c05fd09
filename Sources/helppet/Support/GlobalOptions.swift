import ArgumentParser
import Foundation
import HelpPetKit

/// Options every command accepts.
struct GlobalOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Server URL (default: $HELPPET_SERVER or http://127.0.0.1:8080).", valueName: "url"))
    var server: String?

    @Flag(name: .long, help: "Print machine-readable JSON instead of tables.")
    var json = false

    /// The server URL, without trailing slash.
    var serverURL: String {
        var value = server ?? ProcessInfo.processInfo.environment["HELPPET_SERVER"].flatMap { $0.isEmpty ? nil : $0 }
            ?? "http://127.0.0.1:8080"
        while value.hasSuffix("/") { value.removeLast() }
        return value
    }

    func validate() throws {
        guard let url = URL(string: serverURL), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              url.host != nil
        else {
            throw ValidationError("--server must be an http or https URL, got '\(serverURL)'")
        }
    }

    /// The folder of the token file: `$XDG_CONFIG_HOME/helppet` or `~/.config/helppet`.
    static var configDirectory: URL {
        let environment = ProcessInfo.processInfo.environment
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent("helppet", isDirectory: true)
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return URL(fileURLWithPath: home, isDirectory: true)
            .appendingPathComponent(".config", isDirectory: true).appendingPathComponent("helppet", isDirectory: true)
    }

    /// A client for `serverURL` whose token lives in the config folder (one entry per server).
    func makeClient() -> HelpPetClient {
        let store = FileTokenStore(
            fileURL: Self.configDirectory.appendingPathComponent("token.json"), account: serverURL)
        return HelpPetClient(baseURL: URL(string: serverURL)!, tokenStore: store)
    }

    /// Prints `value` as pretty JSON (sorted keys) on stdout.
    func printJSON(_ value: some Encodable) throws {
        let data = try HelpPetCoding.makeEncoder(pretty: true).encode(value)
        Terminal.out(String(decoding: data, as: UTF8.self))
    }
}
