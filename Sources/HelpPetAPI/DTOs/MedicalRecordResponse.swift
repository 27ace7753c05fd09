import AppCore
import Foundation

struct MedicalRecordResponse: Encodable, Sendable {
    let id: String
    let original_id: String
    let version: Int
    let pet_id: String
    let practice_id: String
    let record_type: String
    let title: String
    @NullEncodable var description: String?
    @NullEncodable var diagnosis: String?
    @NullEncodable var treatment_plan: String?
    let medications: [String]
    @NullEncodable var notes: String?
    @NullEncodable var follow_up_date: String?
    let is_current: Bool
    let created_by: String
    let created_at: Date
    let updated_at: Date

    init(_ r: MedicalRecord) {
        id = r.id!.lowercased
        original_id = r.originalID.lowercased
        version = r.version
        pet_id = r.petID.lowercased
        practice_id = r.practiceID.lowercased
        record_type = r.recordType
        title = r.title
        description = r.description
        diagnosis = r.diagnosis
        treatment_plan = r.treatmentPlan
        medications = r.medications
        notes = r.notes
        follow_up_date = r.followUpDate
        is_current = r.isCurrent
        created_by = r.createdBy.lowercased
        created_at = r.createdAt
        updated_at = r.updatedAt
    }
}

/// `GET /medical-records/{id}` only: the record plus its pet and author.
struct MedicalRecordDetailResponse: Encodable, Sendable {
    struct PetBrief: Encodable, Sendable { let id: String; let name: String; let species: String }
    struct AuthorBrief: Encodable, Sendable { let id: String; let full_name: String }

    let record: MedicalRecordResponse
    let pet: PetBrief
    let created_by_user: AuthorBrief

    enum CodingKeys: String, CodingKey { case pet, created_by_user }

    func encode(to encoder: any Encoder) throws {
        try record.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(pet, forKey: .pet)
        try container.encode(created_by_user, forKey: .created_by_user)
    }
}

struct MedicalRecordsEnvelope: Encodable, Sendable {
    let records: [MedicalRecordResponse]
    let total: Int
    let current_records_count: Int
    let historical_records_count: Int
}
