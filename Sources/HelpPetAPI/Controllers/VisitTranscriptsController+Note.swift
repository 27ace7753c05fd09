import AppCore
import Fluent
import Foundation
import Vapor

extension VisitTranscriptsController {
    /// `PUT /api/v1/visit-transcripts/{visit_id}/note`: staff correct the drafted note before approving it. The
    /// summary is written again from the corrected note, so the app, the console and the owner's pages keep showing
    /// one text. 409 once the note is approved (addenda from then on) and while the recording is being transcribed.
    @Sendable func correctNote(req: Request) async throws -> Response {
        let caller = try req.caller
        try caller.requireStaff()
        let id = try req.pathID("visit_id", .visit)
        let correction = try NoteCorrection(try req.jsonObject().object)
        _ = try await VisibilityStore(db: req.db).visit(id, for: caller)
        let now = req.now
        let visit = try await req.db.writeTransaction { db -> Visit in
            guard let current = try await VisitStore.lockedRow(id, on: db) else { throw APIError.visitNotFound }
            try NoteApproval.requireCorrectable(current)
            guard case .object(let note)? = current.metadata["clinical_note"] else {
                throw APIError.conflict("This visit has no drafted note to correct")
            }
            let (corrected, changes) = try correction.apply(to: note)
            if changes.isEmpty { return current }
            var patch = MetadataPatch()
            patch.set["clinical_note"] = .object(corrected)
            patch.set["note_corrections"] = NoteCorrection.history(current.metadata, adding: changes, by: caller.id, at: now)
            let summary = StoredClinicalNote(["clinical_note": .object(corrected)]).flatMap(NoteSummaryText.render)
            patch.set["summary_status"] = .string("draft")
            try await VisitStore.updateTranscript(
                id, metadata: try patch.sqlValue(current: current.metadata, on: db), fullText: current.fullText,
                summary: summary, state: current.state, now: now, on: db)
            guard let updated = try await Visit.find(id, on: db) else { throw APIError.visitNotFound }
            return updated
        }
        return try JSONResponse.make(Self.response(visit, caller: caller, req: req))
    }
}
