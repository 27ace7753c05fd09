import Fluent
import Foundation

/// One availability window of a vet (M0115): `[startAt, endAt)` in UTC.
final class VetAvailability: Model, @unchecked Sendable {
    static let schema = "vet_availability"

    @ID(key: .id) var id: UUID?
    @Field(key: "vet_user_id") var vetUserID: UUID
    @Field(key: "practice_id") var practiceID: UUID
    @Field(key: "start_at") var startAt: Date
    @Field(key: "end_at") var endAt: Date
    @Field(key: "availability_type") var availabilityType: String
    @OptionalField(key: "notes") var notes: String?
    @Field(key: "is_active") var isActive: Bool
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date

    init() {}
}

/// The kinds of window the app's schedule editor offers (its `AvailabilityType`).
enum AvailabilityType: String, CaseIterable, Sendable {
    case available = "AVAILABLE"
    case surgeryBlock = "SURGERY_BLOCK"
    case unavailable = "UNAVAILABLE"
    case emergencyOnly = "EMERGENCY_ONLY"
}
