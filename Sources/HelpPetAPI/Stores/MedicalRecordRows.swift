import AppCore
import Foundation

/// A medical record version's columns (`medical_records`), as the read path decodes them.
struct MedicalRecordRow: Decodable, Sendable {
    let id: UUID
    let originalID: UUID
    let version: Int
    let isCurrent: Bool
    let petID: UUID
    let practiceID: UUID
    let recordType: String
    let title: String
    let description: String?
    let diagnosis: String?
    let treatmentPlan: String?
    let medications: [String]
    let notes: String?
    let followUpDate: String?
    let visitDate: Date?
    let followUpRequired: Bool
    let veterinarianName: String?
    let clinicName: String?
    let weight: Double?
    let temperature: Double?
    let cost: Double?
    let medicalData: [String: JSONValue]?
    let createdBy: UUID
    let createdAt: Date
    let updatedAt: Date

    enum CodingKeys: String, CodingKey {
        case id
        case originalID = "original_id"
        case version
        case isCurrent = "is_current"
        case petID = "pet_id"
        case practiceID = "practice_id"
        case recordType = "record_type"
        case title, description, diagnosis
        case treatmentPlan = "treatment_plan"
        case medications, notes
        case followUpDate = "follow_up_date"
        case visitDate = "visit_date"
        case followUpRequired = "follow_up_required"
        case veterinarianName = "veterinarian_name"
        case clinicName = "clinic_name"
        case weight, temperature, cost
        case medicalData = "medical_data"
        case createdBy = "created_by"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

    /// The visit's instant; rows always carry one after M0112's backfill (MedicalRecord.effectiveVisitDate).
    var effectiveVisitDate: Date { visitDate ?? createdAt }
}

/// One row of `MedicalRecordStore.listForPet`: the envelope's counts, and one record of the page with its
/// practice's zone (record columns NULL when the page is empty).
struct MedicalRecordPageRow: Decodable, Sendable {
    let total: Int
    let currentCount: Int
    let record: MedicalRecordRow?
    let recordTimezone: String?

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        total = try container.decode(Int.self, forKey: .total)
        currentCount = try container.decode(Int.self, forKey: .currentCount)
        recordTimezone = try container.decodeIfPresent(String.self, forKey: .recordTimezone)
        // The page's LEFT JOIN leaves every record column NULL when there is no record on the page.
        record = try container.decodeNil(forKey: .id) ? nil : try MedicalRecordRow(from: decoder)
    }

    private enum Key: String, CodingKey {
        case total, id
        case currentCount = "current_count"
        case recordTimezone = "record_timezone"
    }
}

/// A page of a pet's medical records: nil from the store when the pet does not exist or is not visible.
struct MedicalRecordPage: Sendable {
    let total: Int
    let current: Int
    let records: [(MedicalRecordRow, PracticeZone)]
}

extension MedicalRecordRow {
    init(_ r: MedicalRecord) {
        id = r.id!
        originalID = r.originalID
        version = r.version
        isCurrent = r.isCurrent
        petID = r.petID
        practiceID = r.practiceID
        recordType = r.recordType
        title = r.title
        description = r.description
        diagnosis = r.diagnosis
        treatmentPlan = r.treatmentPlan
        medications = r.medications
        notes = r.notes
        followUpDate = r.followUpDate
        visitDate = r.visitDate
        followUpRequired = r.followUpRequired
        veterinarianName = r.veterinarianName
        clinicName = r.clinicName
        weight = r.weight
        temperature = r.temperature
        cost = r.cost
        medicalData = r.medicalData
        createdBy = r.createdBy
        createdAt = r.createdAt
        updatedAt = r.updatedAt
    }
}
