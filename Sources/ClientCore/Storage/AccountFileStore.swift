import Foundation

/// What a kit keeps per account in an ``AccountFileStore``: how the file is named inside and coded.
public protocol AccountFileEntry: Codable, Sendable {
    /// The member of the file's JSON object that maps accounts to entries (`tokens`, `accounts`).
    static var accountsMember: String { get }
    /// The encoder of the file (pretty, sorted keys).
    static func makeFileEncoder() -> JSONEncoder
    /// The decoder of the file.
    static func makeFileDecoder() -> JSONDecoder
    /// The kit's error for a file that could not be written.
    static func fileError(path: String, reason: String) -> any Error
}

/// Entries kept in a JSON file created with mode 0600 (its folder 0700), one per `account` (the CLIs use the server
/// URL, so logins to several servers coexist). Every write replaces the file atomically (``PrivateFile``), and the
/// file is removed once no entry is left.
///
/// Public because each kit's file store is this actor under its own name (`FileTokenStore`, `FileCredentialStore`);
/// each kit adds its store protocol's methods in a constrained extension.
public actor AccountFileStore<Entry: AccountFileEntry> {
    /// The file holding the entries.
    public nonisolated let fileURL: URL
    /// The entry of this store in the file.
    public nonisolated let account: String

    public init(fileURL: URL, account: String = "default") {
        self.fileURL = fileURL
        self.account = account
    }

    /// Every account's entry; empty when the file does not exist.
    package func readEntries() throws -> [String: Entry] {
        guard FileManager.default.fileExists(atPath: fileURL.path) else { return [:] }
        let data = try Data(contentsOf: fileURL)
        return try Entry.makeFileDecoder().decode([String: [String: Entry]].self, from: data)[Entry.accountsMember] ?? [:]
    }

    /// Replaces the file with `entries`, or removes it when `entries` is empty.
    package func writeEntries(_ entries: [String: Entry]) throws {
        if entries.isEmpty {
            if FileManager.default.fileExists(atPath: fileURL.path) { try FileManager.default.removeItem(at: fileURL) }
            return
        }
        let data = try Entry.makeFileEncoder().encode([Entry.accountsMember: entries])
        do {
            try PrivateFile.write(data, to: fileURL)
        } catch let error as LocalFileError {
            throw Entry.fileError(path: error.path, reason: error.reason)
        }
    }
}
