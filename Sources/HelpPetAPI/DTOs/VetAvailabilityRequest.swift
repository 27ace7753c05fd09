import AppCore
import Foundation

/// The validated body of a vet-availability create or update (the app's `VetAvailabilityCreateRequest` and
/// `VetAvailabilityUpdateRequest`: nil optionals are omitted, `start_at`/`end_at` are ISO-8601 datetimes).
struct VetAvailabilityRequest {
    static let updatableKeys = ["start_at", "end_at", "availability_type", "notes", "is_active"]
    /// A window may cover a vacation, not a season: at most 31 days.
    static let maxLength: TimeInterval = 31 * 86_400

    var startAt: Date?
    var endAt: Date?
    var availabilityType: AvailabilityType?
    var notes: FieldPatch<String>
    var isActive: Bool?

    init(_ fields: FieldReader, creating: Bool) throws {
        startAt = creating ? try fields.requiredDateTime("start_at") : try fields.optionalDateTime("start_at")
        endAt = creating ? try fields.requiredDateTime("end_at") : try fields.optionalDateTime("end_at")
        startAt = startAt.map(WireTime.truncated)
        endAt = endAt.map(WireTime.truncated)
        availabilityType = try fields.optionalEnum("availability_type", AvailabilityType.self).valueIfPresent
        notes = try fields.optionalString("notes", trim: false, max: 2000).emptyAsNull
        isActive = try fields.optionalBool("is_active")
        if let startAt, let endAt {
            guard endAt > startAt else { throw APIError.badRequest("end_at must be after start_at") }
            try Self.checkLength(from: startAt, to: endAt)
        }
    }

    static func checkLength(from start: Date, to end: Date) throws {
        if end.timeIntervalSince(start) > maxLength {
            throw APIError.badRequest("An availability window may last at most 31 days")
        }
    }
}
