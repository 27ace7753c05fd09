import AppCore
import Fluent
import Foundation

/// Approving a note that asks for a follow-up writes it into the pet's medical records, so the dashboard
/// and the iPhone app (which read `follow_up_date` there) see it. One `visit_summary` record per visit: its lineage
/// id is derived from the visit's id, so approving the note of a replaced recording amends the same record (a new
/// version, as every change of a medical record is) instead of adding a second one.
enum ApprovedNoteFollowUp {
    private static let namespace = UUID(uuidString: "8f0e4d4e-5b57-4c1e-9a43-6a1f2c0e7d11")!

    static func lineageID(ofVisit visitID: UUID) -> UUID {
        NameBasedUUID.v5(namespace: namespace, name: "visit-summary:" + visitID.lowercased)
    }

    /// Inside the approval's write transaction. Nothing happens for a note without a follow-up (or without a note).
    static func record(
        visit: Visit, summary: String?, approvedBy userID: UUID, now: Date, on db: any Database
    ) async throws {
        guard let note = StoredClinicalNote(visit.metadata),
            let practice = try await PracticeStore(db: db).practice(visit.practiceID),
            let day = note.followUpDay(visitDate: visit.visitDate, zone: practice.timeZone)
        else { return }
        let lineage = lineageID(ofVisit: visit.id!)
        let records = MedicalRecordStore(db: db)
        let current = try await records.currentVersion(ofLineage: lineage)

        let record = MedicalRecord()
        record.id = current == nil ? lineage : UUID()
        record.originalID = lineage
        record.version = (current?.version ?? 0) + 1
        record.isCurrent = true
        record.petID = visit.petID
        record.practiceID = visit.practiceID
        record.recordType = MedicalRecordType.visitSummary.rawValue
        record.title = "Visit summary"
        record.description = summary.map { String($0.prefix(10_000)) }
        record.diagnosis = note.text(ofSections: StoredClinicalNote.assessmentKeys).map { String($0.prefix(10_000)) }
        record.treatmentPlan = note.text(ofSections: StoredClinicalNote.planKeys).map { String($0.prefix(10_000)) }
        record.medications = (note.medications ?? []).map { med in
            [med.brand.map { "\(med.name) (\($0))" } ?? med.name, StoredClinicalNote.amount(med.dose, med.doseMax, med.unit), med.frequency]
                .compactMap { $0 }.joined(separator: " ")
        }
        record.notes = note.followUp?.text.map { String($0.prefix(10_000)) }
        record.followUpDate = day.description
        record.followUpRequired = true
        record.visitDate = visit.visitDate
        record.clinicName = practice.name
        if let weight = note.vitals?.weight, weight.valueMax == nil {
            record.weight = weight.unit == "kg" ? weight.value : (weight.value * 0.453_592_37 * 100).rounded() / 100
        }
        if let temperature = note.vitals?.temperature {
            // Medical records keep °F, as the iPhone app shows them.
            record.temperature = temperature.unit == "°C"
                ? ((temperature.value * 9 / 5 + 32) * 10).rounded() / 10 : temperature.value
        }
        record.medicalData = ["visit_id": .string(visit.id!.lowercased), "source": .string("approved_note")]
        record.createdBy = userID
        record.createdAt = now
        record.updatedAt = now
        if let current {
            guard try await records.supersede(current.id!, now: now) else {
                throw APIError.conflict("The visit's medical record changed meanwhile; try again")
            }
        }
        try await records.insert(record)
    }
}
