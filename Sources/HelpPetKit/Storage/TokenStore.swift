import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A saved login: the bearer token and what is known about it.
public struct StoredToken: Codable, Sendable, Hashable {
    public var accessToken: String
    public var tokenType: String
    /// When the token stops working (login time + `expires_in`), if known.
    public var expiresAt: Date?
    /// The user who logged in, for display.
    public var username: String?

    public init(accessToken: String, tokenType: String = "bearer", expiresAt: Date? = nil, username: String? = nil) {
        self.accessToken = accessToken
        self.tokenType = tokenType
        self.expiresAt = expiresAt
        self.username = username
    }

    enum CodingKeys: String, CodingKey {
        case username
        case accessToken = "access_token"
        case tokenType = "token_type"
        case expiresAt = "expires_at"
    }

    /// True when `expiresAt` is known and not after `now`.
    public func isExpired(now: Date = Date()) -> Bool { expiresAt.map { $0 <= now } ?? false }
}

/// Where ``HelpPetClient`` keeps its bearer token. An iPhone app plugs in the Keychain; the default keeps the token
/// in memory; ``FileTokenStore`` keeps it in a file readable only by its owner (the CLI).
public protocol TokenStore: Sendable {
    /// The saved token, if any.
    func loadToken() async throws -> StoredToken?
    /// Saves `token`, replacing any earlier one.
    func saveToken(_ token: StoredToken) async throws
    /// Forgets the token.
    func clearToken() async throws
}

/// Keeps the token in memory only (the default): nothing survives the process.
public actor InMemoryTokenStore: TokenStore {
    private var token: StoredToken?

    public init(token: StoredToken? = nil) { self.token = token }

    public func loadToken() -> StoredToken? { token }
    public func saveToken(_ token: StoredToken) { self.token = token }
    public func clearToken() { token = nil }
}

/// Keeps tokens in a JSON file created with mode 0600 (its folder 0700), one entry per `account` (the CLI uses the
/// server URL, so logins to several servers coexist). Writes replace the file atomically.
public actor FileTokenStore: TokenStore {
    /// The file holding the tokens.
    public nonisolated let fileURL: URL
    /// The entry of this store in the file.
    public nonisolated let account: String

    public init(fileURL: URL, account: String = "default") {
        self.fileURL = fileURL
        self.account = account
    }

    private struct FileContents: Codable {
        var tokens: [String: StoredToken] = [:]
    }

    public func loadToken() throws -> StoredToken? {
        try read().tokens[account]
    }

    public func saveToken(_ token: StoredToken) throws {
        var contents = (try? read()) ?? FileContents()
        contents.tokens[account] = token
        try write(contents)
    }

    public func clearToken() throws {
        guard FileManager.default.fileExists(atPath: fileURL.path) else { return }
        var contents = (try? read()) ?? FileContents()
        contents.tokens[account] = nil
        if contents.tokens.isEmpty {
            try FileManager.default.removeItem(at: fileURL)
        } else {
            try write(contents)
        }
    }

    private func read() throws -> FileContents {
        guard FileManager.default.fileExists(atPath: fileURL.path) else { return FileContents() }
        let data = try Data(contentsOf: fileURL)
        return try HelpPetCoding.makeDecoder().decode(FileContents.self, from: data)
    }

    private func write(_ contents: FileContents) throws {
        let directory = fileURL.deletingLastPathComponent()
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let data = try HelpPetCoding.makeEncoder(pretty: true).encode(contents)
        // Create the temporary file with 0600 from the start (never briefly world-readable), then rename it over.
        let temporary = directory.appendingPathComponent(".\(fileURL.lastPathComponent).\(UUID().uuidString).tmp")
        let fd = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard fd >= 0 else {
            throw HelpPetError.file(path: temporary.path, reason: String(cString: strerror(errno)))
        }
        let written = data.withUnsafeBytes { buffer in
            buffer.baseAddress.map { writeFully(fd, $0, buffer.count) } ?? 0
        }
        fsync(fd)
        close(fd)
        guard written == data.count else {
            unlink(temporary.path)
            throw HelpPetError.file(path: temporary.path, reason: "short write")
        }
        guard rename(temporary.path, fileURL.path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary.path)
            throw HelpPetError.file(path: fileURL.path, reason: reason)
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
