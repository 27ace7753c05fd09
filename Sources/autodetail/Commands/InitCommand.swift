import ArgumentParser
import AutoDetailKit
import CLISupport
import Foundation

struct InitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Get an install key (a new customer identity) and keep it in the config folder (mode 0600).",
        discussion: "With --key, keep an existing key instead (e.g. an organisation key from the console), after checking it.")

    @OptionGroup var global: GlobalOptions

    @Option(name: .long, help: "Use this API key instead of minting a new install key.")
    var key: String?

    @Flag(name: .long, help: "Replace the key already kept for this server (the old identity's bookings stay with it).")
    var force = false

    func validate() throws {
        if let key, key.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { throw ValidationError("--key must not be empty") }
    }

    func run() async throws {
        let client = global.makeClient()
        let stored = try await client.credentials()
        if stored.apiKey != nil && !force {
            throw CLIFailure(
                "A key is already kept for \(global.serverURL) (\(keyLabel(stored.apiKey!))). "
                    + "Pass --force to replace it; its bookings stay with the old key.")
        }
        if let key {
            let trimmed = key.trimmingCharacters(in: .whitespacesAndNewlines)
            let check = try await client.validateKey(trimmed)
            try await client.useAPIKey(trimmed)
            if global.json {
                return try global.printJSON(InitOutput(server: global.serverURL, keyType: check.keyType, keyPrefix: keyLabel(trimmed), installId: nil))
            }
            return Terminal.out("Using the \(check.keyType) key \(keyLabel(trimmed)) for \(global.serverURL).")
        }
        let install = try await client.initInstall()
        if global.json {
            return try global.printJSON(
                InitOutput(server: global.serverURL, keyType: "ios", keyPrefix: keyLabel(install.apiKey), installId: install.installId))
        }
        Terminal.out("New install \(install.installId) on \(global.serverURL); its key (\(keyLabel(install.apiKey))) is kept in \(GlobalOptions.credentialsFile.path).")
    }

    /// The full key is a secret: output shows only its prefix.
    struct InitOutput: Encodable {
        let server: String
        let keyType: String
        let keyPrefix: String
        let installId: String?
    }
}

/// The first 19 characters of a key (its `keyPrefix`), never the whole secret.
func keyLabel(_ key: String) -> String { String(key.prefix(19)) + "…" }
