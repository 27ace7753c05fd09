import Fluent
import Foundation

/// A row of `ad_messages` (contract §3.7).
final class MessageRecord: Model, @unchecked Sendable {
    static let schema = "ad_messages"

    @ID(key: .id) var id: UUID?
    @Field(key: "install_id") var installID: UUID
    @Field(key: "text") var text: String
    @Field(key: "created_at") var createdAt: Date
    @OptionalField(key: "read_at") var readAt: Date?

    init() {}
}
