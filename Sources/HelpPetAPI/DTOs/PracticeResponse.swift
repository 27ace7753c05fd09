import AppCore
import Foundation

struct PracticeResponse: Encodable, Sendable {
    let id: String
    /// The same value as `id`: the iPhone app identifies practices by `uuid`.
    let uuid: String
    let name: String
    let timezone: String
    @NullEncodable var phone: String?
    @NullEncodable var email: String?
    @NullEncodable var address: String?
    let isActive: Bool
    let specialties: [String]
    let acceptsNewPatients: Bool
    @NullEncodable var description: String?
    @NullEncodable var website: String?
    @NullEncodable var licenseNumber: String?
    @NullEncodable var adminUserID: String?
    /// Additive: recording needs the owner's confirmed agreement.
    let recordingConsentRequired: Bool
    /// Additive: which emails the practice sends (docs/notifications.md, "Practice settings").
    let appointmentReminderHours: Int
    let appointmentEmailsEnabled: Bool
    let dischargeEmailsEnabled: Bool
    let createdAt: Date
    let updatedAt: Date

    enum CodingKeys: String, CodingKey {
        case id, uuid, name, timezone, phone, email, address
        case isActive = "is_active", specialties, acceptsNewPatients = "accepts_new_patients", description, website
        case licenseNumber = "license_number", adminUserID = "admin_user_id"
        case recordingConsentRequired = "recording_consent_required"
        case appointmentReminderHours = "appointment_reminder_hours"
        case appointmentEmailsEnabled = "appointment_emails_enabled", dischargeEmailsEnabled = "discharge_emails_enabled"
        case createdAt = "created_at", updatedAt = "updated_at"
    }

    init(_ p: Practice) {
        id = p.id!.lowercased
        uuid = id
        name = p.name
        timezone = p.timezone
        phone = p.phone
        email = p.email
        address = p.address
        isActive = p.isActive
        specialties = p.specialties
        acceptsNewPatients = p.acceptsNewPatients
        description = p.description
        website = p.website
        licenseNumber = p.licenseNumber
        adminUserID = p.adminUserID?.lowercased
        recordingConsentRequired = p.recordingConsentRequired
        appointmentReminderHours = p.appointmentReminderHours
        appointmentEmailsEnabled = p.appointmentEmailsEnabled
        dischargeEmailsEnabled = p.dischargeEmailsEnabled
        createdAt = p.createdAt
        updatedAt = p.updatedAt
    }
}

/// The unauthenticated practice directory (`GET /practices/` without a token): what a signing-up user needs to pick
/// a practice, nothing else.
struct PracticeDirectoryEntry: Encodable, Sendable {
    let id: String
    let uuid: String
    let name: String
    @NullEncodable var address: String?
    @NullEncodable var phone: String?
    @NullEncodable var email: String?

    init(_ p: Practice) {
        id = p.id!.lowercased
        uuid = id
        name = p.name
        address = p.address
        phone = p.phone
        email = p.email
    }
}
