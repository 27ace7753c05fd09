import Foundation

/// What a client remembers between launches: the API key (the install's identity, or an organisation key) and the
/// admin token of the console.
public struct StoredCredentials: Codable, Sendable, Hashable {
    /// The API key sent as `X-API-Key` on key-protected routes.
    public var apiKey: String?
    /// The install id returned with an install key by ``AutoDetailClient/initInstall()``.
    public var installId: String?
    /// The admin token (`adm_…`) sent as `Authorization: Bearer` on `/api/admin/*`.
    public var adminToken: String?
    /// When the admin token stops working (`2025-03-14T20:00:00Z`).
    public var adminTokenExpiresAt: String?

    public init(apiKey: String? = nil, installId: String? = nil, adminToken: String? = nil, adminTokenExpiresAt: String? = nil) {
        self.apiKey = apiKey
        self.installId = installId
        self.adminToken = adminToken
        self.adminTokenExpiresAt = adminTokenExpiresAt
    }

    /// True when nothing is stored.
    public var isEmpty: Bool { apiKey == nil && installId == nil && adminToken == nil && adminTokenExpiresAt == nil }
}

/// Where ``AutoDetailClient`` keeps its credentials. An iPhone app plugs in the Keychain (an install key *is* the
/// customer's identity, contract §9.3); ``InMemoryCredentialStore`` is the default; ``FileCredentialStore`` keeps
/// them in a file only its owner can read (the CLI).
public protocol CredentialStore: Sendable {
    /// The saved credentials (empty when none).
    func load() async throws -> StoredCredentials
    /// Saves `credentials`, replacing what was saved.
    func save(_ credentials: StoredCredentials) async throws
}

/// Keeps the credentials in memory only: nothing survives the process.
public actor InMemoryCredentialStore: CredentialStore {
    private var credentials: StoredCredentials

    public init(_ credentials: StoredCredentials = StoredCredentials()) { self.credentials = credentials }

    public func load() -> StoredCredentials { credentials }
    public func save(_ credentials: StoredCredentials) { self.credentials = credentials }
}
