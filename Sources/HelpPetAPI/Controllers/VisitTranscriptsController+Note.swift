import AppCore
import Foundation
import Vapor

extension VisitTranscriptsController {
    /// `PUT /api/v1/visit-transcripts/{visit_id}/note`: staff correct the drafted note before approving it
    /// (`TranscriptEdits.correctNote`).
    @Sendable func correctNote(req: Request) async throws -> Response {
        let caller = try req.caller
        try caller.requireStaff()
        let id = try req.pathID("visit_id", .visit)
        let correction = try NoteCorrection(try req.jsonObject().object)
        _ = try await req.visibility.visit(id, for: caller)
        let visit = try await req.transcriptEdits.correctNote(id, with: correction, by: caller, now: req.now)
        return try JSONResponse.make(Self.response(visit, caller: caller, req: req))
    }
}
