import AppCore
import Foundation

/// The app's own profile (contract §4.6.1): no priority; plus its unread message count.
struct InstallProfileResponse: Encodable, Sendable {
    let id: String
    @NullEncodable var name: String?
    @NullEncodable var carMake: String?
    @NullEncodable var carPlate: String?
    @NullEncodable var phone: String?
    @NullEncodable var telegram: String?
    @NullEncodable var profilePhotoUrl: String?
    let createdAt: Date
    let updatedAt: Date
    let unreadMessages: Int

    init(_ p: InstallRecord, unreadMessages: Int) {
        id = p.id!.lowercased
        name = p.name
        carMake = p.carMake
        carPlate = p.carPlate
        phone = p.phone
        telegram = p.telegram
        profilePhotoUrl = p.profilePhotoURL
        createdAt = p.createdAt
        updatedAt = p.updatedAt
        self.unreadMessages = unreadMessages
    }
}

/// The console's view of an install (IosUser, contract §4.7.5); `messages` only on the detail route.
struct IosUserResponse: Encodable, Sendable {
    let id: String
    let keyPrefix: String
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
    let requestCount: Int
    let appointmentCount: Int
    let unreadMessages: Int
    let messages: [AdminMessageResponse]?

    enum CodingKeys: String, CodingKey {
        case id, keyPrefix, name, carMake, carPlate, phone, telegram, profilePhotoUrl, priority, createdAt, updatedAt,
            lastSeenAt, lastActivityPath, requestCount, appointmentCount, unreadMessages, messages
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(keyPrefix, forKey: .keyPrefix)
        try c.encode(name, forKey: .name)
        try c.encode(carMake, forKey: .carMake)
        try c.encode(carPlate, forKey: .carPlate)
        try c.encode(phone, forKey: .phone)
        try c.encode(telegram, forKey: .telegram)
        try c.encode(profilePhotoUrl, forKey: .profilePhotoUrl)
        try c.encode(priority, forKey: .priority)
        try c.encode(createdAt, forKey: .createdAt)
        try c.encode(updatedAt, forKey: .updatedAt)
        try c.encode(lastSeenAt, forKey: .lastSeenAt)
        try c.encode(lastActivityPath, forKey: .lastActivityPath)
        try c.encode(requestCount, forKey: .requestCount)
        try c.encode(appointmentCount, forKey: .appointmentCount)
        try c.encode(unreadMessages, forKey: .unreadMessages)
        if let messages { try c.encode(messages, forKey: .messages) }
    }
}

/// A message as the app sees it (contract §3.7).
struct AppMessageResponse: Encodable, Sendable {
    let id: String
    let text: String
    let createdAt: Date
    let read: Bool

    init(_ m: MessageRecord) {
        id = m.id!.lowercased
        text = m.text
        createdAt = m.createdAt
        read = m.readAt != nil
    }
}

/// A message as the console sees it (contract §3.7).
struct AdminMessageResponse: Encodable, Sendable {
    let id: String
    let installId: String
    let text: String
    let createdAt: Date
    let read: Bool
    @NullEncodable var readAt: Date?

    init(_ m: MessageRecord) {
        id = m.id!.lowercased
        installId = m.installID.lowercased
        text = m.text
        createdAt = m.createdAt
        read = m.readAt != nil
        readAt = m.readAt
    }
}

/// `GET /api/ios/messages` (§4.6.3): the only wrapped list.
struct MessageListResponse: Encodable, Sendable {
    let messages: [AppMessageResponse]
    let unreadCount: Int
}
