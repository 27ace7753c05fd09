import ArgumentParser
import AutoDetailKit
import CLISupport
import Foundation

/// `autodetail`'s identity for the shared options: its config folder and `$AUTODETAIL_SERVER`.
enum AutoDetailCLI: CLIIdentity {
    static let commandName = "autodetail"
    static let serverVariable = "AUTODETAIL_SERVER"
}

/// Options every command accepts (`--server`, `--json`; see CLISupport's ``CLIGlobalOptions``).
typealias GlobalOptions = CLIGlobalOptions<AutoDetailCLI>

extension CLIGlobalOptions where CLI == AutoDetailCLI {
    static var credentialsFile: URL { configDirectory.appendingPathComponent("credentials.json") }

    /// A client for `serverURL` whose key and admin token live in the config folder (one entry per server).
    func makeClient() -> AutoDetailClient {
        AutoDetailClient(
            baseURL: URL(string: serverURL)!,
            credentialStore: FileCredentialStore(fileURL: Self.credentialsFile, account: serverURL))
    }

    /// Prints `value` as pretty JSON (sorted keys) on stdout.
    func printJSON(_ value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try printJSON(value, encoder: encoder)
    }
}

/// Checks of option values shared by several commands (usage errors, exit code 2).
enum Check {
    /// `YYYY-MM-DD` and a real date.
    static func date(_ text: String, option: String) throws {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "yyyy-MM-dd"
        guard text.count == 10, parts.count == 3, let date = formatter.date(from: text), formatter.string(from: date) == text
        else {
            throw ValidationError("\(option) must be a date YYYY-MM-DD, got '\(text)'")
        }
    }

    /// A UUID (ids are always UUIDs; anything else cannot exist).
    static func id(_ text: String, what: String) throws {
        guard UUID(uuidString: text) != nil else { throw ValidationError("\(what) must be an id like 94529c37-d794-4f2c-9e94-faac8d686aa8, got '\(text)'") }
    }
}

extension AppointmentStatus: ExpressibleByArgument {}
