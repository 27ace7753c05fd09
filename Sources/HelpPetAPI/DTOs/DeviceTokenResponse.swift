import Foundation

/// A registered APNs token. The iPhone app decodes its `DeviceTokenResponse` with Foundation's default keys (no
/// snake-case strategy, no coding keys), so it reads `deviceToken`, `deviceType`, `isActive`, `createdAt`,
/// `updatedAt`; the API's own snake-case keys are sent as well (docs/iphone-app-compatibility.md). Every key is
/// always present; timestamps are strings either way.
struct DeviceTokenResponse: Encodable, Sendable {
    let id: String
    let deviceToken: String
    let deviceType: String
    let isActive: Bool
    let createdAt: Date
    let updatedAt: Date

    init(_ t: DeviceToken) {
        id = t.id!.lowercased
        deviceToken = t.deviceToken
        deviceType = t.deviceType
        isActive = t.isActive
        createdAt = t.createdAt
        updatedAt = t.updatedAt
    }

    /// Each value under the API's snake-case name, then again under the app's camel-case name.
    enum CodingKeys: String, CodingKey {
        case id, deviceTokenSnake = "device_token", deviceTypeSnake = "device_type", isActiveSnake = "is_active"
        case createdAtSnake = "created_at", updatedAtSnake = "updated_at"
        case deviceToken, deviceType, isActive, createdAt, updatedAt
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(deviceToken, forKey: .deviceTokenSnake)
        try c.encode(deviceType, forKey: .deviceTypeSnake)
        try c.encode(isActive, forKey: .isActiveSnake)
        try c.encode(createdAt, forKey: .createdAtSnake)
        try c.encode(updatedAt, forKey: .updatedAtSnake)
        try c.encode(deviceToken, forKey: .deviceToken)
        try c.encode(deviceType, forKey: .deviceType)
        try c.encode(isActive, forKey: .isActive)
        try c.encode(createdAt, forKey: .createdAt)
        try c.encode(updatedAt, forKey: .updatedAt)
    }
}
