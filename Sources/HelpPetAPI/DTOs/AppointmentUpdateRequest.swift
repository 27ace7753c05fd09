import AppCore
import Foundation

/// The validated body of `PUT /appointments/{id}`; `nil` / `.absent` = unchanged. `DELETE` is the same change with
/// `status` cancelled.
struct AppointmentUpdateRequest: Sendable {
    static let updatableKeys = [
        "assigned_vet_user_id", "appointment_date", "duration_minutes", "appointment_type", "status", "title",
        "description", "notes", "pet_ids",
    ]

    var vet: FieldPatch<UUID> = .absent
    var date: Date?
    var duration: Int?
    var type: AppointmentType?
    var status: AppointmentStatus?
    var title: String?
    var description: FieldPatch<String> = .absent
    var notes: FieldPatch<String> = .absent
    var petIDs: [UUID]?

    init() {}

    init(_ fields: FieldReader) throws {
        vet = try fields.optionalUUID("assigned_vet_user_id", kind: .user)
        date = try fields.optionalDateTime("appointment_date")
        duration = try fields.optionalInteger("duration_minutes", range: 5...480).valueIfPresent.map { Int($0) }
        type = try fields.optionalEnum("appointment_type", AppointmentType.self).valueIfPresent
        status = try fields.optionalEnum("status", AppointmentStatus.self).valueIfPresent
        title = try fields.optionalString("title", min: 1, max: 200, nullable: false).valueIfPresent
        description = try fields.optionalString("description", trim: false, max: 2000)
        notes = try fields.optionalString("notes", trim: false, max: 5000)
        petIDs = try fields.uuidArray("pet_ids", kind: .pet, maxCount: 20)
    }
}
