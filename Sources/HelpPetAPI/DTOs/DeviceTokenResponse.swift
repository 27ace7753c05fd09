import Foundation

/// A registered APNs token. The iPhone app decodes its `DeviceTokenResponse` with Foundation's default keys (no
/// snake-case strategy, no coding keys), so it reads `deviceToken`, `deviceType`, `isActive`, `createdAt`,
/// `updatedAt`; the API's own snake-case keys are sent as well (docs/iphone-app-compatibility.md). Every key is
/// always present; timestamps are strings either way.
struct DeviceTokenResponse: Encodable, Sendable {
    let id: String
    let device_token: String
    let device_type: String
    let is_active: Bool
    let created_at: Date
    let updated_at: Date
    // The same values under the app's camel-case names.
    let deviceToken: String
    let deviceType: String
    let isActive: Bool
    let createdAt: Date
    let updatedAt: Date

    init(_ t: DeviceToken) {
        id = t.id!.lowercased
        device_token = t.deviceToken
        device_type = t.deviceType
        is_active = t.isActive
        created_at = t.createdAt
        updated_at = t.updatedAt
        deviceToken = device_token
        deviceType = device_type
        isActive = is_active
        createdAt = created_at
        updatedAt = updated_at
    }
}
