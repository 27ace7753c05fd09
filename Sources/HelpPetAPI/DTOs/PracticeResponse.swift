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
    let is_active: Bool
    let specialties: [String]
    let accepts_new_patients: Bool
    @NullEncodable var description: String?
    @NullEncodable var website: String?
    @NullEncodable var license_number: String?
    @NullEncodable var admin_user_id: String?
    /// Additive: recording needs the owner's confirmed agreement.
    let recording_consent_required: Bool
    let created_at: Date
    let updated_at: Date

    init(_ p: Practice) {
        id = p.id!.lowercased
        uuid = id
        name = p.name
        timezone = p.timezone
        phone = p.phone
        email = p.email
        address = p.address
        is_active = p.isActive
        specialties = p.specialties
        accepts_new_patients = p.acceptsNewPatients
        description = p.description
        website = p.website
        license_number = p.licenseNumber
        admin_user_id = p.adminUserID?.lowercased
        recording_consent_required = p.recordingConsentRequired
        created_at = p.createdAt
        updated_at = p.updatedAt
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
