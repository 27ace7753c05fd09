import ArgumentParser
import Foundation

/// Which CLI the shared global options belong to: its name (config folder) and its server variable.
package protocol CLIIdentity {
    /// The command's name, also its config folder's (`helppet`, `autodetail`).
    static var commandName: String { get }
    /// The environment variable naming the default server (`HELPPET_SERVER`).
    static var serverVariable: String { get }
}

/// The options every command of both CLIs accepts, `--server URL` and `--json`; each CLI names it
/// `GlobalOptions` (a typealias) and adds its client and JSON encoder in a constrained extension.
package struct CLIGlobalOptions<CLI: CLIIdentity>: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp("Server URL (default: $\(CLI.serverVariable) or http://127.0.0.1:8080).", valueName: "url"))
    package var server: String?

    @Flag(name: .long, help: "Print machine-readable JSON instead of tables.")
    package var json = false

    package init() {}

    /// The server URL without trailing slash: `--server`, else `$serverVariable` when not empty, else the local
    /// default `http://127.0.0.1:8080`.
    package var serverURL: String {
        var value = server ?? ProcessInfo.processInfo.environment[CLI.serverVariable].flatMap { $0.isEmpty ? nil : $0 }
            ?? "http://127.0.0.1:8080"
        while value.hasSuffix("/") { value.removeLast() }
        return value
    }

    /// A usage error (exit code 2) unless the server is an http or https URL with a host.
    package func validate() throws {
        guard let url = URL(string: serverURL), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            url.host != nil
        else {
            throw ValidationError("--server must be an http or https URL, got '\(serverURL)'")
        }
    }

    /// The CLI's config folder (its credentials file lives there): `$XDG_CONFIG_HOME/<name>` when that is an
    /// absolute path, else `~/.config/<name>`.
    package static var configDirectory: URL {
        let environment = ProcessInfo.processInfo.environment
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent(CLI.commandName, isDirectory: true)
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return URL(fileURLWithPath: home, isDirectory: true)
            .appendingPathComponent(".config", isDirectory: true).appendingPathComponent(CLI.commandName, isDirectory: true)
    }

    /// `--json` output: `value` encoded with `encoder` (the kit's: pretty, sorted keys), on stdout.
    package func printJSON(_ value: some Encodable, encoder: JSONEncoder) throws {
        Terminal.out(String(decoding: try encoder.encode(value), as: UTF8.self))
    }
}
