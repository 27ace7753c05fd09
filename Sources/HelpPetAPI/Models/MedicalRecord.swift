import AppCore
import Fluent
import Foundation

/// One immutable version of a medical record; versions of a lineage share `original_id`.
final class MedicalRecord: Model, @unchecked Sendable {
    static let schema = "medical_records"

    @ID(key: .id) var id: UUID?
    @Field(key: "original_id") var originalID: UUID
    @Field(key: "version") var version: Int
    @Field(key: "is_current") var isCurrent: Bool
    @Field(key: "pet_id") var petID: UUID
    @Field(key: "practice_id") var practiceID: UUID
    @Field(key: "record_type") var recordType: String
    @Field(key: "title") var title: String
    @OptionalField(key: "description") var description: String?
    @OptionalField(key: "diagnosis") var diagnosis: String?
    @OptionalField(key: "treatment_plan") var treatmentPlan: String?
    @Field(key: "medications") var medications: [String]
    @OptionalField(key: "notes") var notes: String?
    @OptionalField(key: "follow_up_date") var followUpDate: String?
    /// Set on every write; nil only if a row predates M0112 and escaped its backfill (read as `created_at`).
    @OptionalField(key: "visit_date") var visitDate: Date?
    @Field(key: "follow_up_required") var followUpRequired: Bool
    @OptionalField(key: "veterinarian_name") var veterinarianName: String?
    @OptionalField(key: "clinic_name") var clinicName: String?
    @OptionalField(key: "weight") var weight: Double?
    @OptionalField(key: "temperature") var temperature: Double?
    @OptionalField(key: "cost") var cost: Double?
    @OptionalField(key: "medical_data") var medicalData: [String: JSONValue]?
    @Field(key: "created_by") var createdBy: UUID
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date

    /// The column default of M0112 for new rows; a row loaded from the database overwrites it.
    init() { followUpRequired = false }

    /// The visit's instant; rows always carry one after M0112's backfill.
    var effectiveVisitDate: Date { visitDate ?? createdAt }
}
