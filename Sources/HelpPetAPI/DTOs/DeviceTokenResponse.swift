import Foundation

/// The iPhone app's `DeviceTokenResponse`: every key required, timestamps as strings.
struct DeviceTokenResponse: Encodable, Sendable {
    let id: String
    let device_token: String
    let device_type: String
    let is_active: Bool
    let created_at: Date
    let updated_at: Date

    init(_ t: DeviceToken) {
        id = t.id!.lowercased
        device_token = t.deviceToken
        device_type = t.deviceType
        is_active = t.isActive
        created_at = t.createdAt
        updated_at = t.updatedAt
    }
}
