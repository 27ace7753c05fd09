import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Keeps credentials in a JSON file created with mode 0600 (its folder 0700), one entry per `account` (the CLI uses
/// the server URL, so several servers coexist). Every write replaces the file atomically through a temporary file
/// that is 0600 from its creation, so a key is never briefly readable by others.
public actor FileCredentialStore: CredentialStore {
    /// The file holding the credentials.
    public nonisolated let fileURL: URL
    /// The entry of this store in the file.
    public nonisolated let account: String

    public init(fileURL: URL, account: String = "default") {
        self.fileURL = fileURL
        self.account = account
    }

    private struct FileContents: Codable {
        var accounts: [String: StoredCredentials] = [:]
    }

    public func load() throws -> StoredCredentials {
        try read().accounts[account] ?? StoredCredentials()
    }

    public func save(_ credentials: StoredCredentials) throws {
        var contents = try read()
        contents.accounts[account] = credentials.isEmpty ? nil : credentials
        if contents.accounts.isEmpty {
            if FileManager.default.fileExists(atPath: fileURL.path) { try FileManager.default.removeItem(at: fileURL) }
            return
        }
        try write(contents)
    }

    private func read() throws -> FileContents {
        guard FileManager.default.fileExists(atPath: fileURL.path) else { return FileContents() }
        let data = try Data(contentsOf: fileURL)
        do {
            return try JSONDecoder().decode(FileContents.self, from: data)
        } catch {
            throw AutoDetailError.file(path: fileURL.path, reason: "is not a credentials file (\(error.localizedDescription))")
        }
    }

    private func write(_ contents: FileContents) throws {
        let directory = fileURL.deletingLastPathComponent()
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(contents)
        let temporary = directory.appendingPathComponent(".\(fileURL.lastPathComponent).\(UUID().uuidString).tmp")
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard fd >= 0 else { throw AutoDetailError.file(path: temporary.path, reason: String(cString: strerror(errno))) }
        let written = data.withUnsafeBytes { buffer in
            buffer.baseAddress.map { writeFully(fd, $0, buffer.count) } ?? 0
        }
        fsync(fd)
        close(fd)
        guard written == data.count else {
            unlink(temporary.path)
            throw AutoDetailError.file(path: temporary.path, reason: "short write")
        }
        guard rename(temporary.path, fileURL.path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary.path)
            throw AutoDetailError.file(path: fileURL.path, reason: reason)
        }
        chmod(fileURL.path, 0o600)
    }
}

private func writeFully(_ fd: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
    var offset = 0
    while offset < count {
        let n = write(fd, pointer + offset, count - offset)
        if n < 0 {
            if errno == EINTR { continue }
            return offset
        }
        offset += n
    }
    return offset
}
