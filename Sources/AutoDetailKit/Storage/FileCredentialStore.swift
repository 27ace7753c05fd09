import ClientCore
import Foundation

/// Keeps credentials in a JSON file created with mode 0600 (its folder 0700), one entry per `account` (the CLI uses
/// the server URL, so several servers coexist). Every write replaces the file atomically through a temporary file
/// that is 0600 from its creation, so a key is never briefly readable by others. The file store both kits share
/// (ClientCore's ``AccountFileStore``), holding ``StoredCredentials`` under `accounts`.
public typealias FileCredentialStore = AccountFileStore<StoredCredentials>

extension StoredCredentials: AccountFileEntry {
    public static var accountsMember: String { "accounts" }

    public static func makeFileEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    public static func makeFileDecoder() -> JSONDecoder { JSONDecoder() }

    public static func fileError(path: String, reason: String) -> any Error { AutoDetailError.file(path: path, reason: reason) }
}

extension AccountFileStore: CredentialStore where Entry == StoredCredentials {
    public func load() throws -> StoredCredentials {
        try entries()[account] ?? StoredCredentials()
    }

    /// Saves `credentials` for this account; empty credentials remove the account's entry (and the file with the
    /// last one).
    public func save(_ credentials: StoredCredentials) throws {
        var entries = try entries()
        entries[account] = credentials.isEmpty ? nil : credentials
        try writeEntries(entries)
    }

    private func entries() throws -> [String: StoredCredentials] {
        do {
            return try readEntries()
        } catch let error as DecodingError {
            throw AutoDetailError.file(path: fileURL.path, reason: "is not a credentials file (\(error.localizedDescription))")
        }
    }
}
