import AppCore
import Fluent
import Foundation

/// One immutable version of a medical record; versions of a lineage share `original_id`.
package final class MedicalRecord: Model, @unchecked Sendable {
    package static let schema = "medical_records"

    @ID(key: .id) package var id: UUID?
    @Field(key: "original_id") package var originalID: UUID
    @Field(key: "version") package var version: Int
    @Field(key: "is_current") package var isCurrent: Bool
    @Field(key: "pet_id") package var petID: UUID
    @Field(key: "practice_id") package var practiceID: UUID
    @Field(key: "record_type") package var recordType: String
    @Field(key: "title") package var title: String
    @OptionalField(key: "description") package var description: String?
    @OptionalField(key: "diagnosis") package var diagnosis: String?
    @OptionalField(key: "treatment_plan") package var treatmentPlan: String?
    @Field(key: "medications") package var medications: [String]
    @OptionalField(key: "notes") package var notes: String?
    @OptionalField(key: "follow_up_date") package var followUpDate: String?
    /// Set on every write; nil only if a row predates M0112 and escaped its backfill (read as `created_at`).
    @OptionalField(key: "visit_date") package var visitDate: Date?
    @Field(key: "follow_up_required") package var followUpRequired: Bool
    @OptionalField(key: "veterinarian_name") package var veterinarianName: String?
    @OptionalField(key: "clinic_name") package var clinicName: String?
    @OptionalField(key: "weight") package var weight: Double?
    @OptionalField(key: "temperature") package var temperature: Double?
    @OptionalField(key: "cost") package var cost: Double?
    @OptionalField(key: "medical_data") package var medicalData: [String: JSONValue]?
    @Field(key: "created_by") package var createdBy: UUID
    @Field(key: "created_at") package var createdAt: Date
    @Field(key: "updated_at") package var updatedAt: Date

    /// The column default of M0112 for new rows; a row loaded from the database overwrites it.
    package init() { followUpRequired = false }

    /// The visit's instant; rows always carry one after M0112's backfill.
    var effectiveVisitDate: Date { visitDate ?? createdAt }
}
