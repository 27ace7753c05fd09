import AppCore
import Fluent
import Foundation

/// An APNs device token of a user (M0114).
final class DeviceToken: Model, @unchecked Sendable {
    static let schema = "device_tokens"

    @ID(key: .id) var id: UUID?
    @Field(key: "user_id") var userID: UUID
    @Field(key: "device_token") var deviceToken: String
    @Field(key: "device_type") var deviceType: String
    @Field(key: "is_active") var isActive: Bool
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date

    init() {}
}

/// A notification waiting for a push sender (M0114); `payload` has the keys the app's push handler reads.
final class NotificationOutboxEntry: Model, @unchecked Sendable {
    static let schema = "notification_outbox"

    @ID(key: .id) var id: UUID?
    @Field(key: "user_id") var userID: UUID
    @Field(key: "kind") var kind: String
    @Field(key: "payload") var payload: [String: JSONValue]
    @Field(key: "created_at") var createdAt: Date
    @OptionalField(key: "sent_at") var sentAt: Date?

    init() {}
}
