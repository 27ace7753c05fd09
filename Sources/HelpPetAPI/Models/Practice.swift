import Fluent
import Foundation

final class Practice: Model, @unchecked Sendable {
    static let schema = "practices"

    @ID(key: .id) var id: UUID?
    @Field(key: "name") var name: String
    @Field(key: "timezone") var timezone: String
    @OptionalField(key: "phone") var phone: String?
    @OptionalField(key: "email") var email: String?
    @OptionalField(key: "address") var address: String?
    @Field(key: "is_active") var isActive: Bool
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date

    init() {}

    /// The practice's zone; validated on write, so a stored value always resolves.
    var timeZone: TimeZone { TimeZone(identifier: timezone) ?? TimeZone(identifier: "UTC")! }
}
