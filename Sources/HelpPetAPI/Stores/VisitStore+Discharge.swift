import AppCore
import Fluent
import Foundation

extension VisitStore {
    /// The instructions of a visit the caller may read (Visibility first: 404 for what they may not see); 409 until
    /// the note is approved, for everyone, so a draft never reaches an owner this way either.
    func dischargeInstructions(_ visitID: UUID, caller: Caller) async throws
        -> (visit: Visit, instructions: DischargeInstructions)
    {
        let visit = try await VisibilityStore(db: db).visit(visitID, for: caller)
        guard NoteApproval.isApproved(visit.metadata) else { throw DischargeInstructions.notApproved }
        guard let pet = try await Pet.find(visit.petID, on: db),
            let practice = try await Practice.find(visit.practiceID, on: db)
        else { throw APIError.visitNotFound }
        let addenda = try await VisitAddendumStore(db: db).list(visit: visitID).map(\.text)
        return (visit, DischargeInstructions(approved: visit, petName: pet.name, practice: practice, addenda: addenda))
    }
}
