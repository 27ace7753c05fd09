import AppCore
import Fluent
import Foundation

extension DischargeInstructions {
    static let notApproved = APIError.conflict(
        "Discharge instructions are written from the approved note; this visit's note is not approved yet")

    /// The instructions of a visit the caller may read (Visibility first: 404 for what they may not see); 409 until
    /// the note is approved, for everyone, so a draft never reaches an owner this way either.
    static func forVisit(_ visitID: UUID, caller: Caller, on db: any Database) async throws
        -> (visit: Visit, instructions: DischargeInstructions)
    {
        let visit = try await VisibilityStore(db: db).visit(visitID, for: caller)
        guard NoteApproval.isApproved(visit.metadata) else { throw notApproved }
        guard let pet = try await Pet.find(visit.petID, on: db),
            let practice = try await Practice.find(visit.practiceID, on: db)
        else { throw APIError.visitNotFound }
        let addenda = try await VisitAddendumStore.list(visit: visitID, on: db).map(\.text)
        return (visit, DischargeInstructions(approved: visit, petName: pet.name, practice: practice, addenda: addenda))
    }

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
