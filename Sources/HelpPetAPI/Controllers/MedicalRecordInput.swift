import AppCore
import Foundation

/// The validated body of a medical-record create or amendment, in the contract's field order (`pet_id` before it
/// and `practice_id` after it are read by the create handler).
struct MedicalRecordInput {
    static let updatableKeys = [
        "record_type", "title", "description", "diagnosis", "treatment_plan", "medications", "notes", "follow_up_date",
    ]

    var recordType: MedicalRecordType?
    var title: String?
    var description: FieldPatch<String>
    var diagnosis: FieldPatch<String>
    var treatmentPlan: FieldPatch<String>
    var medications: [String]?
    var notes: FieldPatch<String>
    /// Stored as `YYYY-MM-DD` text.
    var followUpDate: FieldPatch<String>

    init(_ fields: FieldReader, creating: Bool) throws {
        recordType = creating
            ? try fields.requiredEnum("record_type", MedicalRecordType.self)
            : try fields.optionalEnum("record_type", MedicalRecordType.self).valueIfPresent
        title = creating
            ? try fields.requiredString("title", max: 200)
            : try fields.optionalString("title", min: 1, max: 200, nullable: false).valueIfPresent
        description = try fields.optionalString("description", trim: false, max: 10_000)
        diagnosis = try fields.optionalString("diagnosis", trim: false, max: 5000)
        treatmentPlan = try fields.optionalString("treatment_plan", trim: false, max: 5000)
        medications = try fields.optionalStringArray("medications", maxCount: 50, itemMax: 200)
        notes = try fields.optionalString("notes", trim: false, max: 10_000)
        followUpDate = try fields.optionalDay("follow_up_date").map(\.description)
    }

    /// The first version of a new lineage.
    func makeRecord(petID: UUID, practiceID: UUID, createdBy: UUID, now: Date) -> MedicalRecord {
        let record = MedicalRecord()
        let id = UUID()
        record.id = id
        record.originalID = id
        record.version = 1
        record.isCurrent = true
        record.petID = petID
        record.practiceID = practiceID
        record.recordType = recordType!.rawValue
        record.title = title!
        record.description = description.valueIfPresent
        record.diagnosis = diagnosis.valueIfPresent
        record.treatmentPlan = treatmentPlan.valueIfPresent
        record.medications = medications ?? []
        record.notes = notes.valueIfPresent
        record.followUpDate = followUpDate.valueIfPresent
        record.createdBy = createdBy
        record.createdAt = now
        record.updatedAt = now
        return record
    }

    /// The next version of `old`: its values overlaid with this body, authored by the caller. A new version is made
    /// even when nothing differs (the contract records every amendment).
    func amendment(of old: MedicalRecord, createdBy: UUID, now: Date) -> MedicalRecord {
        let record = MedicalRecord()
        record.id = UUID()
        record.originalID = old.originalID
        record.version = old.version + 1
        record.isCurrent = true
        record.petID = old.petID
        record.practiceID = old.practiceID
        record.recordType = recordType?.rawValue ?? old.recordType
        record.title = title ?? old.title
        record.description = description.applied(to: old.description)
        record.diagnosis = diagnosis.applied(to: old.diagnosis)
        record.treatmentPlan = treatmentPlan.applied(to: old.treatmentPlan)
        record.medications = medications ?? old.medications
        record.notes = notes.applied(to: old.notes)
        record.followUpDate = followUpDate.applied(to: old.followUpDate)
        record.createdBy = createdBy
        record.createdAt = now
        record.updatedAt = now
        return record
    }
}
