import Fluent
import Foundation

package final class Practice: Model, @unchecked Sendable {
    package static let schema = "practices"

    @ID(key: .id) package var id: UUID?
    @Field(key: "name") package var name: String
    @Field(key: "timezone") package var timezone: String
    @OptionalField(key: "phone") package var phone: String?
    @OptionalField(key: "email") package var email: String?
    @OptionalField(key: "address") package var address: String?
    @Field(key: "is_active") package var isActive: Bool
    @Field(key: "specialties") package var specialties: [String]
    @Field(key: "accepts_new_patients") package var acceptsNewPatients: Bool
    @OptionalField(key: "description") package var description: String?
    @OptionalField(key: "website") package var website: String?
    @OptionalField(key: "license_number") package var licenseNumber: String?
    /// The user who created the practice through self-service onboarding (docs/iphone-app-compatibility.md).
    @OptionalField(key: "admin_user_id") package var adminUserID: UUID?
    /// Recording needs the owner's confirmed agreement (M0122, docs/web-console.md "Recording in the browser").
    @Field(key: "recording_consent_required") package var recordingConsentRequired: Bool
    /// Hours before an appointment its reminder email goes out; 0 sends none (M0126).
    @Field(key: "appointment_reminder_hours") package var appointmentReminderHours: Int
    /// Confirmation, reschedule and cancellation emails to the owner (M0130).
    @Field(key: "appointment_emails_enabled") package var appointmentEmailsEnabled: Bool
    /// The discharge instructions by email when a note is approved (M0130).
    @Field(key: "discharge_emails_enabled") package var dischargeEmailsEnabled: Bool
    @Field(key: "created_at") package var createdAt: Date
    @Field(key: "updated_at") package var updatedAt: Date

    /// The column defaults (M0112, M0126, M0130) for new rows; a row loaded from the database overwrites them.
    package init() {
        specialties = []
        acceptsNewPatients = true
        recordingConsentRequired = false
        appointmentReminderHours = 24
        appointmentEmailsEnabled = true
        dischargeEmailsEnabled = false
    }

    /// The practice's zone; validated on write, so a stored value always resolves.
    var timeZone: TimeZone { TimeZone.stored(timezone) }
}
