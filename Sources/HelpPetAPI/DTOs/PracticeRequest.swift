import AppCore
import Foundation

/// The validated body of a practice create or update, in the contract's field order.
struct PracticeRequest {
    static let updatableKeys = [
        "name", "timezone", "phone", "email", "address", "is_active",
        "specialties", "accepts_new_patients", "description", "website", "license_number",
        "recording_consent_required", "appointment_reminder_hours", "appointment_emails_enabled",
        "discharge_emails_enabled",
    ]
    /// A reminder at most a week ahead; 0 sends none.
    static let reminderHours: ClosedRange<Int64> = 0...168

    var name: String?
    var timezone: String?
    var phone: FieldPatch<String>
    var email: FieldPatch<String>
    var address: FieldPatch<String>
    var isActive: Bool?
    var specialties: [String]?
    var acceptsNewPatients: Bool?
    var description: FieldPatch<String>
    var website: FieldPatch<String>
    var licenseNumber: FieldPatch<String>
    var recordingConsentRequired: Bool?
    var appointmentReminderHours: Int?
    var appointmentEmailsEnabled: Bool?
    var dischargeEmailsEnabled: Bool?

    init(_ fields: FieldReader, creating: Bool) throws {
        name = creating
            ? try fields.requiredString("name", max: 200)
            : try fields.optionalString("name", min: 1, max: 200, nullable: false).valueIfPresent
        let zone = creating
            ? try fields.requiredString("timezone", max: 100)
            : try fields.optionalString("timezone", min: 1, max: 100, nullable: false).valueIfPresent
        if let zone, !LocalDay.isAcceptedZoneIdentifier(zone) {
            throw APIError.badRequest("Invalid timezone: '\(zone)'")
        }
        timezone = zone
        phone = try fields.phone("phone")
        email = try fields.email("email", required: false, nullable: true)
        address = try fields.optionalString("address", trim: true, max: 500)
        isActive = try fields.optionalBool("is_active")
        specialties = try fields.optionalStringArray("specialties", maxCount: 50, itemMax: 100)
        acceptsNewPatients = try fields.optionalBool("accepts_new_patients")
        description = try fields.optionalString("description", trim: false, max: 5000).emptyAsNull
        website = try fields.optionalString("website", max: 500).emptyAsNull
        licenseNumber = try fields.optionalString("license_number", max: 100).emptyAsNull
        recordingConsentRequired = try fields.optionalBool("recording_consent_required")
        appointmentReminderHours = try fields.optionalInteger(
            "appointment_reminder_hours", range: Self.reminderHours, nullable: false).valueIfPresent.map { Int($0) }
        appointmentEmailsEnabled = try fields.optionalBool("appointment_emails_enabled")
        dischargeEmailsEnabled = try fields.optionalBool("discharge_emails_enabled")
    }

    func apply(to practice: Practice) {
        if let name { practice.setIfChanged(\.name, name) }
        if let timezone { practice.setIfChanged(\.timezone, timezone) }
        practice.setIfChanged(\.phone, phone.applied(to: practice.phone))
        practice.setIfChanged(\.email, email.applied(to: practice.email))
        practice.setIfChanged(\.address, address.applied(to: practice.address))
        if let specialties { practice.setIfChanged(\.specialties, specialties) }
        if let acceptsNewPatients { practice.setIfChanged(\.acceptsNewPatients, acceptsNewPatients) }
        practice.setIfChanged(\.description, description.applied(to: practice.description))
        practice.setIfChanged(\.website, website.applied(to: practice.website))
        practice.setIfChanged(\.licenseNumber, licenseNumber.applied(to: practice.licenseNumber))
        if let recordingConsentRequired { practice.setIfChanged(\.recordingConsentRequired, recordingConsentRequired) }
        if let appointmentReminderHours { practice.setIfChanged(\.appointmentReminderHours, appointmentReminderHours) }
        if let appointmentEmailsEnabled { practice.setIfChanged(\.appointmentEmailsEnabled, appointmentEmailsEnabled) }
        if let dischargeEmailsEnabled { practice.setIfChanged(\.dischargeEmailsEnabled, dischargeEmailsEnabled) }
    }
}
