import AppCore
import Foundation

/// A medical record version's columns (`medical_records`), as the read path decodes them.
struct MedicalRecordRow: Decodable, Sendable {
    let id: UUID
    let original_id: UUID
    let version: Int
    let is_current: Bool
    let pet_id: UUID
    let practice_id: UUID
    let record_type: String
    let title: String
    let description: String?
    let diagnosis: String?
    let treatment_plan: String?
    let medications: [String]
    let notes: String?
    let follow_up_date: String?
    let visit_date: Date?
    let follow_up_required: Bool
    let veterinarian_name: String?
    let clinic_name: String?
    let weight: Double?
    let temperature: Double?
    let cost: Double?
    let medical_data: [String: JSONValue]?
    let created_by: UUID
    let created_at: Date
    let updated_at: Date

    /// The visit's instant; rows always carry one after M0112's backfill (MedicalRecord.effectiveVisitDate).
    var effectiveVisitDate: Date { visit_date ?? created_at }
}

/// One row of `MedicalRecordStore.listForPet`: the envelope's counts, and one record of the page with its
/// practice's zone (record columns NULL when the page is empty).
struct MedicalRecordPageRow: Decodable, Sendable {
    let total: Int
    let current_count: Int
    let record: MedicalRecordRow?
    let record_timezone: String?

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        total = try container.decode(Int.self, forKey: .total)
        current_count = try container.decode(Int.self, forKey: .current_count)
        record_timezone = try container.decodeIfPresent(String.self, forKey: .record_timezone)
        // The page's LEFT JOIN leaves every record column NULL when there is no record on the page.
        record = try container.decodeNil(forKey: .id) ? nil : try MedicalRecordRow(from: decoder)
    }

    private enum Key: String, CodingKey { case total, current_count, record_timezone, id }
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
        original_id = r.originalID
        version = r.version
        is_current = r.isCurrent
        pet_id = r.petID
        practice_id = r.practiceID
        record_type = r.recordType
        title = r.title
        description = r.description
        diagnosis = r.diagnosis
        treatment_plan = r.treatmentPlan
        medications = r.medications
        notes = r.notes
        follow_up_date = r.followUpDate
        visit_date = r.visitDate
        follow_up_required = r.followUpRequired
        veterinarian_name = r.veterinarianName
        clinic_name = r.clinicName
        weight = r.weight
        temperature = r.temperature
        cost = r.cost
        medical_data = r.medicalData
        created_by = r.createdBy
        created_at = r.createdAt
        updated_at = r.updatedAt
    }
}
