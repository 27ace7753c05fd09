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
    // The iPhone app's fields (docs/iphone-app-compatibility.md).
    let visit_date: Date
    let follow_up_required: Bool
    /// The same value as `created_by`.
    let created_by_user_id: String
    /// The same value as `treatment_plan`.
    @NullEncodable var treatment: String?
    let is_follow_up_due: Bool
    let days_since_visit: Int
    @NullEncodable var veterinarian_name: String?
    @NullEncodable var clinic_name: String?
    @NullEncodable var weight: Double?
    @NullEncodable var temperature: Double?
    @NullEncodable var cost: Double?
    @NullEncodable var medical_data: [String: JSONValue]?

    /// - Parameter today: today in the record's practice zone (MedicalRecordPresenter).
    init(_ r: MedicalRecord, today: CalendarDay, zone: TimeZone) {
        self.init(MedicalRecordRow(r), today: today, zone: zone)
    }

    init(_ r: MedicalRecordRow, today: CalendarDay, zone: TimeZone) {
        id = r.id.lowercased
        original_id = r.original_id.lowercased
        version = r.version
        pet_id = r.pet_id.lowercased
        practice_id = r.practice_id.lowercased
        record_type = r.record_type
        title = r.title
        description = r.description
        diagnosis = r.diagnosis
        treatment_plan = r.treatment_plan
        medications = r.medications
        notes = r.notes
        follow_up_date = r.follow_up_date
        is_current = r.is_current
        created_by = r.created_by.lowercased
        created_at = r.created_at
        updated_at = r.updated_at
        visit_date = r.effectiveVisitDate
        follow_up_required = r.follow_up_required
        created_by_user_id = created_by
        treatment = r.treatment_plan
        // Only the current version can still be due: a superseded version's follow-up was replaced by the amendment.
        let followUp = r.follow_up_date.flatMap(CalendarDay.init)
        is_follow_up_due = r.is_current && followUp.map { $0 <= today } == true
        days_since_visit = Int(today.daysSince1970 - LocalDay.day(containing: r.effectiveVisitDate, in: zone).daysSince1970)
        veterinarian_name = r.veterinarian_name
        clinic_name = r.clinic_name
        weight = r.weight
        temperature = r.temperature
        cost = r.cost
        medical_data = r.medical_data
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
