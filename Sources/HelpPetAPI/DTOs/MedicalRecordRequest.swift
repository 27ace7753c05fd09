import AppCore
import Foundation

/// The validated body of a medical-record create or amendment, in the contract's field order (`pet_id` before it
/// and `practice_id` after it are read by the create handler), then the iPhone app's fields and aliases
/// (docs/iphone-app-compatibility.md).
struct MedicalRecordRequest {
    static let updatableKeys = [
        "record_type", "title", "description", "diagnosis", "treatment_plan", "medications", "notes", "follow_up_date",
        "treatment", "visit_date", "follow_up_required", "veterinarian_name", "clinic_name", "weight", "temperature",
        "cost", "medical_data",
    ]

    var recordType: MedicalRecordType?
    var title: String?
    var description: FieldPatch<String>
    var diagnosis: FieldPatch<String>
    var treatmentPlan: FieldPatch<String>
    var medications: [String]?
    var notes: FieldPatch<String>
    /// A calendar day, or a datetime whose day is taken in the practice's zone once the practice is known.
    var followUpDate: FieldPatch<FollowUpDate>
    var visitDate: Date?
    var followUpRequired: Bool?
    var veterinarianName: FieldPatch<String>
    var clinicName: FieldPatch<String>
    var weight: FieldPatch<Double>
    var temperature: FieldPatch<Double>
    var cost: FieldPatch<Double>
    var medicalData: FieldPatch<[String: JSONValue]>

    enum FollowUpDate: Sendable {
        case day(CalendarDay)
        case instant(Date)

        func day(in zone: TimeZone) -> CalendarDay {
            switch self {
            case .day(let day): return day
            case .instant(let instant): return LocalDay.day(containing: instant, in: zone)
            }
        }
    }

    init(_ fields: FieldReader, creating: Bool) throws {
        recordType = creating
            ? try fields.requiredEnum("record_type", MedicalRecordType.self)
            : try fields.optionalEnum("record_type", MedicalRecordType.self).valueIfPresent
        title = creating
            ? try fields.requiredString("title", max: 200)
            : try fields.optionalString("title", min: 1, max: 200, nullable: false).valueIfPresent
        description = try fields.optionalString("description", trim: false, max: 10_000)
        diagnosis = try fields.optionalString("diagnosis", trim: false, max: 5000)
        treatmentPlan = try Self.treatmentPlan(fields)
        medications = try MedicationList.read(fields)
        notes = try fields.optionalString("notes", trim: false, max: 10_000)
        followUpDate = try Self.followUpDate(fields)
        visitDate = try fields.optionalDateTime("visit_date")
        followUpRequired = try fields.optionalBool("follow_up_required")
        veterinarianName = try fields.optionalString("veterinarian_name", max: 200)
        clinicName = try fields.optionalString("clinic_name", max: 200)
        // 0 is what the app sends for "not measured" (as for a pet's weight); a cost of 0 is a real price.
        weight = Self.zeroAsNull(try fields.optionalMeasurement("weight", max: 10_000))
        temperature = Self.zeroAsNull(try fields.optionalMeasurement("temperature", max: 200))
        cost = try fields.optionalMeasurement("cost", max: 1_000_000_000)
        medicalData = .absent
        if let object = try fields.optionalBoundedObject("medical_data", maxBytes: 16_384, nullable: true) {
            medicalData = .value(object)
        } else if fields.object["medical_data"]?.isNull == true {
            medicalData = .null
        }
    }

    /// `treatment` is the app's name of `treatment_plan`; both may be sent only with the same value (`""` and
    /// `null` both mean "no plan", so they agree).
    static func treatmentPlan(_ fields: FieldReader) throws -> FieldPatch<String> {
        let plan = try fields.optionalString("treatment_plan", trim: false, max: 5000)
        let alias = try fields.optionalString("treatment", trim: false, max: 5000)
        switch (plan, alias) {
        case (_, .absent): return plan
        case (.absent, _): return alias
        default:
            func cleared(_ text: String?) -> String? { text?.isEmpty == true ? nil : text }
            guard cleared(plan.valueIfPresent) == cleared(alias.valueIfPresent) else {
                throw APIError.badRequest("treatment and treatment_plan must be the same when both are given")
            }
            return plan
        }
    }

    /// `YYYY-MM-DD` as the contract has it, or a datetime as the app sends it (`2026-01-10T00:00:00.000Z`).
    static func followUpDate(_ fields: FieldReader) throws -> FieldPatch<FollowUpDate> {
        guard case .string(let text)? = fields.object["follow_up_date"], text.count > 10 else {
            return try fields.optionalDay("follow_up_date").map { .day($0) }
        }
        switch WireTime.parse(text) {
        case .success(let instant): return .value(.instant(instant))
        case .missingZone, .invalid:
            throw APIError.badRequest("follow_up_date must be a date in YYYY-MM-DD format or an ISO-8601 datetime with a timezone")
        }
    }

    static func zeroAsNull(_ patch: FieldPatch<Double>) -> FieldPatch<Double> {
        if case .value(0) = patch { return .null }
        return patch
    }

    /// The first version of a new lineage; `zone` is the practice's (for a follow-up date sent as a datetime).
    func makeRecord(petID: UUID, practiceID: UUID, zone: TimeZone, createdBy: UUID, now: Date) -> MedicalRecord {
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
        record.followUpDate = followUpDate.valueIfPresent?.day(in: zone).description
        record.visitDate = WireTime.truncated(visitDate ?? now)
        record.followUpRequired = followUpRequired ?? (record.followUpDate != nil)
        record.veterinarianName = veterinarianName.valueIfPresent
        record.clinicName = clinicName.valueIfPresent
        record.weight = weight.valueIfPresent
        record.temperature = temperature.valueIfPresent
        record.cost = cost.valueIfPresent
        record.medicalData = medicalData.valueIfPresent
        record.createdBy = createdBy
        record.createdAt = now
        record.updatedAt = now
        return record
    }

    /// The next version of `old`: its values overlaid with this body, authored by the caller. A new version is made
    /// even when nothing differs (the contract records every amendment).
    func amendment(of old: MedicalRecord, zone: TimeZone, createdBy: UUID, now: Date) -> MedicalRecord {
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
        record.followUpDate = followUpDate.map { $0.day(in: zone).description }.applied(to: old.followUpDate)
        record.visitDate = visitDate.map(WireTime.truncated) ?? old.visitDate ?? old.createdAt
        // A changed follow-up date decides the flag again unless the body sets it.
        if let followUpRequired {
            record.followUpRequired = followUpRequired
        } else if !followUpDate.isAbsent {
            record.followUpRequired = record.followUpDate != nil
        } else {
            record.followUpRequired = old.followUpRequired
        }
        record.veterinarianName = veterinarianName.applied(to: old.veterinarianName)
        record.clinicName = clinicName.applied(to: old.clinicName)
        record.weight = weight.applied(to: old.weight)
        record.temperature = temperature.applied(to: old.temperature)
        record.cost = cost.applied(to: old.cost)
        record.medicalData = medicalData.applied(to: old.medicalData)
        record.createdBy = createdBy
        record.createdAt = now
        record.updatedAt = now
        return record
    }
}

/// `medications` of a medical record: the contract's list of strings, or the app's single string, which is split on
/// commas and line breaks into trimmed, non-empty items (`""` is the empty list). The legacy profile answers the list
/// joined with `", "`, so a string without other separators round-trips.
enum MedicationList {
    static let maxCount = 50
    static let itemMax = 200

    static func read(_ fields: FieldReader) throws -> [String]? {
        guard case .string(let text)? = fields.object["medications"] else {
            return try fields.optionalStringArray("medications", maxCount: maxCount, itemMax: itemMax)
        }
        if text.unicodeScalars.contains("\u{0}") { throw APIError.badRequest("medications contains invalid characters") }
        let items = split(text)
        if items.count > maxCount { throw APIError.badRequest("medications must contain at most \(maxCount) items") }
        if items.contains(where: { $0.unicodeScalars.count > itemMax }) {
            throw APIError.badRequest("medications items must be 1 to \(itemMax) characters")
        }
        return items
    }

    static func split(_ text: String) -> [String] {
        text.split(whereSeparator: { $0 == "," || $0.isNewline })
            .map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            .filter { !$0.isEmpty }
    }

    static func join(_ items: [String]) -> String { items.joined(separator: ", ") }
}
