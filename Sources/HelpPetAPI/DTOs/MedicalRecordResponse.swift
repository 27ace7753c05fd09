import AppCore
import Foundation

struct MedicalRecordResponse: Encodable, Sendable {
    let id: String
    let originalID: String
    let version: Int
    let petID: String
    let practiceID: String
    let recordType: String
    let title: String
    @NullEncodable var description: String?
    @NullEncodable var diagnosis: String?
    @NullEncodable var treatmentPlan: String?
    let medications: [String]
    @NullEncodable var notes: String?
    @NullEncodable var followUpDate: String?
    let isCurrent: Bool
    let createdBy: String
    let createdAt: Date
    let updatedAt: Date
    // The iPhone app's fields (docs/iphone-app-compatibility.md).
    let visitDate: Date
    let followUpRequired: Bool
    /// The same value as `created_by`.
    let createdByUserID: String
    /// The same value as `treatment_plan`.
    @NullEncodable var treatment: String?
    let isFollowUpDue: Bool
    let daysSinceVisit: Int
    @NullEncodable var veterinarianName: String?
    @NullEncodable var clinicName: String?
    @NullEncodable var weight: Double?
    @NullEncodable var temperature: Double?
    @NullEncodable var cost: Double?
    @NullEncodable var medicalData: [String: JSONValue]?

    enum CodingKeys: String, CodingKey {
        case id
        case originalID = "original_id"
        case version
        case petID = "pet_id"
        case practiceID = "practice_id"
        case recordType = "record_type"
        case title, description, diagnosis
        case treatmentPlan = "treatment_plan"
        case medications, notes
        case followUpDate = "follow_up_date"
        case isCurrent = "is_current"
        case createdBy = "created_by"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case visitDate = "visit_date"
        case followUpRequired = "follow_up_required"
        case createdByUserID = "created_by_user_id"
        case treatment
        case isFollowUpDue = "is_follow_up_due"
        case daysSinceVisit = "days_since_visit"
        case veterinarianName = "veterinarian_name"
        case clinicName = "clinic_name"
        case weight, temperature, cost
        case medicalData = "medical_data"
    }

    /// - Parameter today: today in the record's practice zone (MedicalRecordPresenter).
    init(_ r: MedicalRecord, today: CalendarDay, zone: TimeZone) {
        self.init(MedicalRecordRow(r), today: today, zone: zone)
    }

    init(_ r: MedicalRecordRow, today: CalendarDay, zone: TimeZone) {
        id = r.id.lowercased
        originalID = r.originalID.lowercased
        version = r.version
        petID = r.petID.lowercased
        practiceID = r.practiceID.lowercased
        recordType = r.recordType
        title = r.title
        description = r.description
        diagnosis = r.diagnosis
        treatmentPlan = r.treatmentPlan
        medications = r.medications
        notes = r.notes
        followUpDate = r.followUpDate
        isCurrent = r.isCurrent
        createdBy = r.createdBy.lowercased
        createdAt = r.createdAt
        updatedAt = r.updatedAt
        visitDate = r.effectiveVisitDate
        followUpRequired = r.followUpRequired
        createdByUserID = createdBy
        treatment = r.treatmentPlan
        // Only the current version can still be due: a superseded version's follow-up was replaced by the amendment.
        let followUp = r.followUpDate.flatMap(CalendarDay.init)
        isFollowUpDue = r.isCurrent && followUp.map { $0 <= today } == true
        daysSinceVisit = Int(today.daysSince1970 - LocalDay.day(containing: r.effectiveVisitDate, in: zone).daysSince1970)
        veterinarianName = r.veterinarianName
        clinicName = r.clinicName
        weight = r.weight
        temperature = r.temperature
        cost = r.cost
        medicalData = r.medicalData
    }
}

/// `GET /medical-records/{id}` only: the record plus its pet and author.
struct MedicalRecordDetailResponse: Encodable, Sendable {
    struct PetBrief: Encodable, Sendable { let id: String; let name: String; let species: String }
    struct AuthorBrief: Encodable, Sendable {
        let id: String
        let fullName: String

        enum CodingKeys: String, CodingKey {
            case id
            case fullName = "full_name"
        }
    }

    let record: MedicalRecordResponse
    let pet: PetBrief
    let createdByUser: AuthorBrief

    enum CodingKeys: String, CodingKey { case pet, createdByUser = "created_by_user" }

    func encode(to encoder: any Encoder) throws {
        try record.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(pet, forKey: .pet)
        try container.encode(createdByUser, forKey: .createdByUser)
    }
}

struct MedicalRecordsEnvelope: Encodable, Sendable {
    let records: [MedicalRecordResponse]
    let total: Int
    let currentRecordsCount: Int
    let historicalRecordsCount: Int

    enum CodingKeys: String, CodingKey {
        case records, total
        case currentRecordsCount = "current_records_count"
        case historicalRecordsCount = "historical_records_count"
    }
}
