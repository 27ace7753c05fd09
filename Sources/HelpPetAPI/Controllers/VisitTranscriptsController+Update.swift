import AppCore
import Foundation
import Vapor

extension VisitTranscriptsController {
    /// Staff edit of a transcript: text, summary (which approves it), a metadata merge and the manual state changes
    /// (`TranscriptEdits.update`).
    @Sendable func update(req: Request) async throws -> Response {
        let caller = try req.caller
        try caller.requireStaff()
        let id = try req.pathID("visit_id", .visit)
        let fields = try req.jsonObject()
        let change = try VisitTranscriptUpdateRequest(fields)
        guard fields.containsAny(of: VisitTranscriptUpdateRequest.updatableKeys) else {
            throw APIError.nothingToUpdate
        }
        let stored = try await req.visibility.visit(id, for: caller)
        try Self.requireImmutablesUnchanged(fields, of: stored, req: req)
        // failed → processing needs the recording in storage; the HEAD happens before the transaction, whose
        // state check then re-reads the row.
        var objectPresent = false
        if change.state == .processing, stored.state == .failed, let key = stored.storageKey {
            objectPresent = try await req.recordingStorage.head(key) != nil
        }
        let visit = try await req.transcriptEdits.update(
            id, with: change, by: caller, objectPresent: objectPresent, now: req.now)
        return try JSONResponse.make(Self.response(visit, caller: caller, req: req))
    }

    /// Ids, links, the visit date and the audio URL may be echoed back unchanged (clients send whole objects).
    static func requireImmutablesUnchanged(_ fields: FieldReader, of visit: Visit, req: Request) throws {
        try fields.requireUnchanged("uuid", current: visit.id!.lowercased)
        try fields.requireUnchanged("pet_id", current: visit.petID.lowercased)
        try fields.requireUnchanged("appointment_id", current: visit.appointmentID?.lowercased)
        try fields.requireUnchanged("practice_id", current: visit.practiceID.lowercased)
        try fields.requireUnchanged(
            "visit_date", current: String(Int64(visit.visitDate.timeIntervalSince1970.rounded(.down))))
        let url = VisitTranscriptResponse(visit, objectURL: objectURL(of: visit, req: req), hideDraftSummary: false)
            .audioTranscriptURL
        try fields.requireUnchanged("audio_transcript_url", current: url)
        try fields.requireUnchanged("created_by", current: visit.createdBy.lowercased)
    }
}
