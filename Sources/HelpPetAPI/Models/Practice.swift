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
    @Field(key: "specialties") var specialties: [String]
    @Field(key: "accepts_new_patients") var acceptsNewPatients: Bool
    @OptionalField(key: "description") var description: String?
    @OptionalField(key: "website") var website: String?
    @OptionalField(key: "license_number") var licenseNumber: String?
    /// The user who created the practice through self-service onboarding (docs/iphone-app-compatibility.md).
    @OptionalField(key: "admin_user_id") var adminUserID: UUID?
    /// Recording needs the owner's confirmed agreement (M0122, docs/web-console.md "Recording in the browser").
    @Field(key: "recording_consent_required") var recordingConsentRequired: Bool
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date

    /// The column defaults of M0112 for new rows; a row loaded from the database overwrites them.
    init() {
        specialties = []
        acceptsNewPatients = true
        recordingConsentRequired = false
    }

    /// The practice's zone; validated on write, so a stored value always resolves.
    var timeZone: TimeZone { TimeZone(identifier: timezone) ?? TimeZone(identifier: "UTC")! }
}
