import AppCore
import Fluent
import Foundation
import ObjectStorage
import Vapor

/// `POST /visit-transcripts/audio/upload/complete/{visit_id}` and `GET /visit-transcripts/audio/playback/{visit_id}`.
extension AudioUploadController {
    /// Verifies the object really is in storage, records its real size, and queues transcription; idempotent.
    @Sendable func complete(req: Request) async throws -> Response {
        let caller = try req.caller
        try caller.requireStaff()
        let id = try req.pathID("visit_id", .visit)
        let request = try CompleteRecordingRequest(try req.optionalJSONObject())
        // Scoped by the caller's current practice like every read: the answer is the whole visit, so a member
        // who moved to another practice gets 404 here too (the reconciler still completes what they uploaded).
        let visit = try await req.visibility.visit(id, for: caller)
        guard visit.source == VisitSource.recording.rawValue, visit.storageKey != nil else {
            throw APIError.conflict("This visit has no audio upload to complete")
        }
        let current = try await req.recordingSlots.complete(visit, details: request.details, caller: caller, now: req.now)
        return try JSONResponse.make(VisitTranscriptsController.response(current, caller: caller, req: req))
    }

    /// A short-lived URL serving the current recording with its playback type, inline, with Range support.
    @Sendable func playback(req: Request) async throws -> Response {
        let caller = try req.caller
        let id = try req.pathID("visit_id", .visit)
        // One statement: the visit's recording columns, scoped to the caller (VisitStore).
        guard let visit = try await req.visits.playback(id, for: caller) else {
            throw APIError.visitNotFound
        }
        let notFound = APIError.notFound("Audio file not found")
        guard visit.source == VisitSource.recording.rawValue, let key = visit.storageKey,
            try await req.recordingStorage.head(key) != nil
        else { throw notFound }
        let type = AudioContentType.stored(visit.metadata["content_type"].flatMap { if case .string(let s) = $0 { s } else { nil } })
        let filename: String
        if case .string(let name)? = visit.metadata["filename"], !name.isEmpty {
            // Rows stored before names were cleaned of bidirectional controls are cleaned on the way out.
            filename = RecordingFilename.sanitized(name)
        } else {
            filename = "recording.\(RecordingKey.fileExtension(of: key) ?? type.fileExtension)"
        }
        let presigned = req.recordingStorage.presignPlayback(key: key, filename: filename, type: type, baseURL: req.recordingBaseURL)
        return try JSONResponse.make(
            AudioPlaybackResponse(
                presignedURL: presigned.url, expiresIn: RecordingStorage.playbackURLLifetime,
                visitID: id.lowercased, filename: filename))
    }
}
