import AppCore
import Foundation

/// The iPhone app's `VetAvailability`: every key present, instants as UTC datetimes.
struct VetAvailabilityResponse: Encodable, Sendable {
    let id: String
    let vet_user_id: String
    let practice_id: String
    let start_at: Date
    let end_at: Date
    let availability_type: String
    @NullEncodable var notes: String?
    let is_active: Bool
    let created_at: Date
    let updated_at: Date

    init(_ a: VetAvailability) {
        id = a.id!.lowercased
        vet_user_id = a.vetUserID.lowercased
        practice_id = a.practiceID.lowercased
        start_at = a.startAt
        end_at = a.endAt
        availability_type = a.availabilityType
        notes = a.notes
        is_active = a.isActive
        created_at = a.createdAt
        updated_at = a.updatedAt
    }

    /// A window of a dashboard's day: active, of that vet and practice (the statement filtered on all three).
    init(_ w: AvailabilityWindowRow, vet: UUID, practice: UUID) {
        id = w.availability_id.lowercased
        vet_user_id = vet.lowercased
        practice_id = practice.lowercased
        start_at = w.start_at
        end_at = w.end_at
        availability_type = w.availability_type
        notes = w.availability_notes
        is_active = true
        created_at = w.availability_created_at
        updated_at = w.availability_updated_at
    }
}
