import ClientCore
import Foundation

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
/// server URL, so logins to several servers coexist). Writes replace the file atomically. The file store both kits
/// share (ClientCore's ``AccountFileStore``), holding ``StoredToken``s under `tokens`.
public typealias FileTokenStore = AccountFileStore<StoredToken>

extension StoredToken: AccountFileEntry {
    public static var accountsMember: String { "tokens" }
    public static func makeFileEncoder() -> JSONEncoder { HelpPetCoding.makeEncoder(pretty: true) }
    public static func makeFileDecoder() -> JSONDecoder { HelpPetCoding.makeDecoder() }
    public static func fileError(path: String, reason: String) -> any Error { HelpPetError.file(path: path, reason: reason) }
}

extension AccountFileStore: TokenStore where Entry == StoredToken {
    public func loadToken() throws -> StoredToken? {
        try readEntries()[account]
    }

    /// Saves `token` for this account (an unreadable file is replaced: a new login repairs it).
    public func saveToken(_ token: StoredToken) throws {
        var entries = (try? readEntries()) ?? [:]
        entries[account] = token
        try writeEntries(entries)
    }

    public func clearToken() throws {
        guard FileManager.default.fileExists(atPath: fileURL.path) else { return }
        var entries = (try? readEntries()) ?? [:]
        entries[account] = nil
        try writeEntries(entries)
    }
}
