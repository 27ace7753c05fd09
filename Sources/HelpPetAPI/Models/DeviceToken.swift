import AppCore
import Fluent
import Foundation

/// An APNs device token of a user (M0114).
package final class DeviceToken: Model, @unchecked Sendable {
    package static let schema = "device_tokens"

    @ID(key: .id) package var id: UUID?
    @Field(key: "user_id") package var userID: UUID
    @Field(key: "device_token") package var deviceToken: String
    @Field(key: "device_type") package var deviceType: String
    @Field(key: "is_active") package var isActive: Bool
    @Field(key: "created_at") package var createdAt: Date
    @Field(key: "updated_at") package var updatedAt: Date

    package init() {}
}

/// A push notification for a user (M0114; delivery state M0129, see PushOutboxStore); `payload` has the keys the
/// app's push handler reads.
package final class NotificationOutboxEntry: Model, @unchecked Sendable {
    package static let schema = "notification_outbox"

    @ID(key: .id) package var id: UUID?
    @Field(key: "user_id") package var userID: UUID
    @Field(key: "kind") package var kind: String
    @Field(key: "payload") package var payload: [String: JSONValue]
    @Field(key: "created_at") package var createdAt: Date
    @OptionalField(key: "sent_at") package var sentAt: Date?
    /// A reminder's appointment and the start it reminds of (M0132); nil for other kinds.
    @OptionalField(key: "appointment_id") package var appointmentID: UUID?
    @OptionalField(key: "reminder_for") package var reminderFor: Date?

    package init() {}
}
