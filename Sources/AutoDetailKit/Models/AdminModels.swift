import Foundation

/// `POST /api/admin/login`.
public struct AdminLoginResponse: Codable, Sendable, Hashable {
    /// `adm_` + 64 hex; valid 12 hours.
    public let token: String
    public let expiresIn: Int
    public let expiresAt: String
}

/// An organisation (or install) API key as the console sees it. ``key`` is set only in the create answer.
public struct APIKey: Codable, Sendable, Hashable, Identifiable {
    public let id: String
    /// `org` or `ios`.
    public let kind: String
    public let name: String
    /// The first 19 characters of the key.
    public let keyPrefix: String
    public let fullAccess: Bool
    /// The full key: only in the answer of ``AutoDetailClient/createAPIKey(name:fullAccess:)``, never again.
    public let key: String?
    public let createdAt: String
    public let lastUsedAt: String?
    public let requestCount: Int
    public let revoked: Bool
    public let revokedAt: String?
}

/// An app installation as the console sees it (`GET /api/admin/ios-users`).
public struct IosUser: Codable, Sendable, Hashable, Identifiable {
    public let id: String
    public let keyPrefix: String
    public let name: String?
    public let carMake: String?
    public let carPlate: String?
    public let phone: String?
    public let telegram: String?
    public let profilePhotoUrl: String?
    /// `normal`, `high` or `blocked`.
    public let priority: String
    public let createdAt: String
    public let updatedAt: String
    public let lastSeenAt: String?
    public let lastActivityPath: String?
    public let requestCount: Int
    public let appointmentCount: Int
    public let unreadMessages: Int
    /// Only on the detail route: the latest 100 messages, newest first.
    public let messages: [AdminMessage]?
}

/// `GET /api/admin/ios-users/stats`.
public struct InstallStats: Codable, Sendable, Hashable {
    public let total: Int
    public let active30d: Int
    public let highPriority: Int
    public let blocked: Int
}

/// A message as the console sees it.
public struct AdminMessage: Codable, Sendable, Hashable, Identifiable {
    public let id: String
    public let installId: String
    public let text: String
    public let createdAt: String
    public let read: Bool
    public let readAt: String?
}

/// The studio settings (`GET`/`PUT /api/admin/settings`).
public struct StudioSettings: Codable, Sendable, Hashable {
    public let studioName: String
    /// IANA zone identifier, e.g. `Europe/Moscow`.
    public let timezone: String
    /// Keys `mon` … `sun`; a nil value is a closed day.
    public let workingHours: [String: DayHours?]
    public let slotStepMinutes: Int
    public let capacity: Int
    public let bookingWindowDays: Int
    public let leadTimeMinutes: Int
    /// Where a forgotten console password's reset link is sent; nil: nowhere (and from servers that predate it).
    public let adminEmail: String?
    public let updatedAt: String

    /// The weekday keys in week order.
    public static let weekdays = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
}
