import Foundation

/// `POST /api/auth/validate-key` on success (`valid` is always true here; failures are thrown).
public struct ValidateKeyResponse: Codable, Sendable, Hashable {
    public let valid: Bool
    public let message: String
    public let timestamp: String
    /// `org` or `ios`.
    public let keyType: String
}

/// `POST /api/ios/init`: a new install identity. The key is shown only here.
public struct InstallInitResponse: Codable, Sendable, Hashable {
    public let apiKey: String
    public let baseUrl: String
    public let installId: String
}

/// `POST /api/uploads/presign`: where and how to PUT the bytes, and the `ref` to link afterwards.
public struct PresignResponse: Codable, Sendable, Hashable {
    public let uploadUrl: String
    /// Always `PUT`.
    public let method: String
    /// Headers the PUT must carry with exactly these values.
    public let headers: [String: String]
    /// Opaque reference for ``LinkPhotosRequest/photoUrls``.
    public let ref: String
    public let expiresIn: Int
    public let expiresAt: String
}

/// The install's own profile (`GET`/`POST /api/ios/profile`).
public struct InstallProfile: Codable, Sendable, Hashable {
    public let id: String
    public let name: String?
    public let carMake: String?
    public let carPlate: String?
    public let phone: String?
    public let telegram: String?
    public let profilePhotoUrl: String?
    public let createdAt: String
    public let updatedAt: String
    public let unreadMessages: Int
}

/// A message from the studio, as the app sees it.
public struct Message: Codable, Sendable, Hashable, Identifiable {
    public let id: String
    public let text: String
    public let createdAt: String
    public let read: Bool
}

/// `GET /api/ios/messages`: the only wrapped list of the API.
public struct MessageList: Codable, Sendable, Hashable {
    public let messages: [Message]
    /// All unread messages, whatever the filter.
    public let unreadCount: Int
}
