import Fluent
import Foundation

/// One availability window of a vet (M0115): `[startAt, endAt)` in UTC.
package final class VetAvailability: Model, @unchecked Sendable {
    package static let schema = "vet_availability"

    @ID(key: .id) package var id: UUID?
    @Field(key: "vet_user_id") package var vetUserID: UUID
    @Field(key: "practice_id") package var practiceID: UUID
    @Field(key: "start_at") package var startAt: Date
    @Field(key: "end_at") package var endAt: Date
    @Field(key: "availability_type") package var availabilityType: String
    @OptionalField(key: "notes") package var notes: String?
    @Field(key: "is_active") package var isActive: Bool
    @Field(key: "created_at") package var createdAt: Date
    @Field(key: "updated_at") package var updatedAt: Date

    package init() {}
}

/// The kinds of window the app's schedule editor offers (its `AvailabilityType`).
enum AvailabilityType: String, CaseIterable, Sendable {
    case available = "AVAILABLE"
    case surgeryBlock = "SURGERY_BLOCK"
    case unavailable = "UNAVAILABLE"
    case emergencyOnly = "EMERGENCY_ONLY"
}
