import AppCore
import Foundation

/// The iPhone app's `VetAvailability`: every key present, instants as UTC datetimes.
struct VetAvailabilityResponse: Encodable, Sendable {
    let id: String
    let vetUserID: String
    let practiceID: String
    let startAt: Date
    let endAt: Date
    let availabilityType: String
    @NullEncodable var notes: String?
    let isActive: Bool
    let createdAt: Date
    let updatedAt: Date

    enum CodingKeys: String, CodingKey {
        case id
        case vetUserID = "vet_user_id"
        case practiceID = "practice_id"
        case startAt = "start_at"
        case endAt = "end_at"
        case availabilityType = "availability_type"
        case notes
        case isActive = "is_active"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    init(_ a: VetAvailability) {
        id = a.id!.lowercased
        vetUserID = a.vetUserID.lowercased
        practiceID = a.practiceID.lowercased
        startAt = a.startAt
        endAt = a.endAt
        availabilityType = a.availabilityType
        notes = a.notes
        isActive = a.isActive
        createdAt = a.createdAt
        updatedAt = a.updatedAt
    }

    /// A window of a dashboard's day: active, of that vet and practice (the statement filtered on all three).
    init(_ w: AvailabilityWindowRow, vet: UUID, practice: UUID) {
        id = w.availabilityID.lowercased
        vetUserID = vet.lowercased
        practiceID = practice.lowercased
        startAt = w.startAt
        endAt = w.endAt
        availabilityType = w.availabilityType
        notes = w.availabilityNotes
        isActive = true
        createdAt = w.availabilityCreatedAt
        updatedAt = w.availabilityUpdatedAt
    }
}
