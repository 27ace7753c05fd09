import Foundation

/// One version of a medical record (seed 003 shape plus `version`, `original_id`, `practice_id`). Records are
/// immutable: an amendment is a new version with the same `originalId`.
public struct MedicalRecord: Codable, Sendable, Hashable, Identifiable {
    public let id: String
    /// The id of version 1 of this record's lineage.
    public let originalId: String?
    public let version: Int?
    public let petId: String
    public let practiceId: String?
    /// `checkup`, `vaccination`, `surgery`, `emergency`, `dental`, `diagnostic`, `treatment`, `follow_up`,
    /// `lab_result`, `visit_summary` or `other`.
    public let recordType: String
    public let title: String
    public let description: String?
    public let diagnosis: String?
    public let treatmentPlan: String?
    public let medications: [String]
    public let notes: String?
    /// `YYYY-MM-DD` or nil.
    public let followUpDate: String?
    public let isCurrent: Bool
    public let createdBy: String
    public let createdAt: Date
    public let updatedAt: Date
    /// Only from `GET /api/v1/medical-records/{id}`.
    public let pet: PetReference?
    /// Only from `GET /api/v1/medical-records/{id}`.
    public let createdByUser: UserReference?

    /// The pet named by a record detail.
    public struct PetReference: Codable, Sendable, Hashable {
        public let id: String
        public let name: String
        public let species: String
    }

    /// The author named by a record detail.
    public struct UserReference: Codable, Sendable, Hashable {
        public let id: String
        public let fullName: String

        enum CodingKeys: String, CodingKey {
            case id
            case fullName = "full_name"
        }
    }

    enum CodingKeys: String, CodingKey {
        case id, version, title, description, diagnosis, medications, notes, pet
        case originalId = "original_id"
        case petId = "pet_id"
        case practiceId = "practice_id"
        case recordType = "record_type"
        case treatmentPlan = "treatment_plan"
        case followUpDate = "follow_up_date"
        case isCurrent = "is_current"
        case createdBy = "created_by"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case createdByUser = "created_by_user"
    }
}

/// The medical-records envelope of `GET /api/v1/medical-records/pet/{id}` and `…/history`.
public struct MedicalRecordsResponse: Codable, Sendable, Hashable {
    public let records: [MedicalRecord]
    /// Matching records ignoring `limit` / `offset`.
    public let total: Int
    public let currentRecordsCount: Int
    public let historicalRecordsCount: Int

    enum CodingKeys: String, CodingKey {
        case records, total
        case currentRecordsCount = "current_records_count"
        case historicalRecordsCount = "historical_records_count"
    }
}
