import Foundation

/// An install as the console lists it (IosUser, contract §4.7.5): the profile, its key's prefix and request count,
/// its appointment count and unread messages, from one statement.
struct IosUserRow: Decodable, Sendable {
    let id: UUID
    let name: String?
    let carMake: String?
    let carPlate: String?
    let phone: String?
    let telegram: String?
    let profilePhotoUrl: String?
    let priority: String
    let createdAt: Date
    let updatedAt: Date
    let lastSeenAt: Date?
    let lastActivityPath: String?
    let keyPrefix: String
    let requestCount: Int
    let appointmentCount: Int
    let unreadCount: Int

    func response(messages: [AdminMessageResponse]? = nil) -> IosUserResponse {
        IosUserResponse(
            id: id.lowercased, keyPrefix: keyPrefix, name: name, carMake: carMake, carPlate: carPlate, phone: phone,
            telegram: telegram, profilePhotoUrl: profilePhotoUrl, priority: priority, createdAt: createdAt,
            updatedAt: updatedAt, lastSeenAt: lastSeenAt, lastActivityPath: lastActivityPath, requestCount: requestCount,
            appointmentCount: appointmentCount, unreadMessages: unreadCount, messages: messages)
    }
}

/// The counts of `GET /api/admin/ios-users/stats`.
struct InstallStatsRow: Decodable, Sendable {
    let total: Int
    let active: Int
    let high: Int
    let blocked: Int
}
