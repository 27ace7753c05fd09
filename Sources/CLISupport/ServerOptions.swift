import ArgumentParser
import Foundation

/// What the `--server` and `--json` global options of both CLIs do; each CLI's `GlobalOptions` declares the options
/// (their help names its own environment variable) and calls these.
package enum ServerOptions {
    /// The server URL without trailing slash: `option`, else `$environmentVariable` when not empty, else the local
    /// default `http://127.0.0.1:8080`.
    package static func serverURL(option: String?, environmentVariable: String) -> String {
        var value = option ?? ProcessInfo.processInfo.environment[environmentVariable].flatMap { $0.isEmpty ? nil : $0 }
            ?? "http://127.0.0.1:8080"
        while value.hasSuffix("/") { value.removeLast() }
        return value
    }

    /// A usage error (exit code 2) unless `serverURL` is an http or https URL with a host.
    package static func validate(serverURL: String) throws {
        guard let url = URL(string: serverURL), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
            url.host != nil
        else {
            throw ValidationError("--server must be an http or https URL, got '\(serverURL)'")
        }
    }

    /// The CLI's config folder (its credentials file lives there): `$XDG_CONFIG_HOME/<app>` when that is an absolute
    /// path, else `~/.config/<app>`.
    package static func configDirectory(app: String) -> URL {
        let environment = ProcessInfo.processInfo.environment
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") {
            return URL(fileURLWithPath: xdg, isDirectory: true).appendingPathComponent(app, isDirectory: true)
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return URL(fileURLWithPath: home, isDirectory: true)
            .appendingPathComponent(".config", isDirectory: true).appendingPathComponent(app, isDirectory: true)
    }

    /// `--json` output: `value` encoded with the kit's encoder (pretty, sorted keys), on stdout.
    package static func printJSON(_ value: some Encodable, encoder: JSONEncoder) throws {
        Terminal.out(String(decoding: try encoder.encode(value), as: UTF8.self))
    }
}
