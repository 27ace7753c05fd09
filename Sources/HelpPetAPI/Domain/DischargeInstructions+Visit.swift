import AppCore
import Foundation

extension DischargeInstructions {
    static let notApproved = APIError.conflict(
        "Discharge instructions are written from the approved note; this visit's note is not approved yet")

    /// The instructions of an approved visit: the owner's page, its print and the discharge email all use this.
    init(approved visit: Visit, petName: String, practice: Practice, addenda: [String]) {
        var approvedAt: String?
        if case .string(let at)? = visit.metadata["summary_approved_at"] { approvedAt = at }
        self.init(
            note: NoteApproval.approvedSource(visit.metadata) == .note ? StoredClinicalNote(visit.metadata) : nil,
            summary: visit.summary, petName: petName, practiceName: practice.name, visitDate: visit.visitDate,
            zone: practice.timeZone, approvedAt: approvedAt, addenda: addenda)
    }
}
