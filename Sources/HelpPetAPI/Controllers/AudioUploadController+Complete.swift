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
        let fields = try req.optionalJSONObject()
        let clientSize = try fields.optionalInteger("file_size_bytes", range: 1...104_857_600, nullable: true)
            .valueIfPresent
        let duration = try fields.optionalPositiveNumber("duration_seconds", max: 14_400).valueIfPresent
        let device = try fields.optionalBoundedObject("device_metadata", maxBytes: 16_384, nullable: true)
        // Scoped by the caller's current practice like every read: the answer is the whole visit, so a member
        // who moved to another practice gets 404 here too (the reconciler still completes what they uploaded).
        let visit = try await VisibilityStore(db: req.db).visit(id, for: caller)
        guard visit.source == VisitSource.recording.rawValue, visit.storageKey != nil else {
            throw APIError.conflict("This visit has no audio upload to complete")
        }
        guard visit.state == .new else {
            return try JSONResponse.make(VisitTranscriptsController.response(visit, caller: caller, req: req))
        }
        // The object may be under any key issued for this slot, not only the latest one.
        let landed = try await SlotLanding.find(visitID: id, storage: req.recordingStorage, on: req.db)
        try await RecordingCompletion.settle(
            visitID: id, landed: landed, source: .client,
            details: CompletionDetails(clientFileSize: clientSize, durationSeconds: duration, deviceMetadata: device),
            actor: caller.id, now: req.now, on: req.db, metrics: req.core.metrics)
        // Whoever won a concurrent completion, the answer is the visit as it is now.
        guard let current = try await Visit.find(id, on: req.db) else { throw APIError.visitNotFound }
        guard current.state != .new else { throw APIError.audioNotUploaded }
        return try JSONResponse.make(VisitTranscriptsController.response(current, caller: caller, req: req))
    }

    struct PlaybackResponse: Encodable, Sendable {
        let presigned_url: String
        let expires_in: Int
        let visit_id: String
        let filename: String
    }

    /// A short-lived URL serving the current recording with its playback type, inline, with Range support.
    @Sendable func playback(req: Request) async throws -> Response {
        let caller = try req.caller
        let id = try req.pathID("visit_id", .visit)
        // One statement: the visit's recording columns, scoped to the caller (VisitStore).
        guard let visit = try await VisitStore.playback(id, for: caller, on: req.db) else {
            throw APIError.visitNotFound
        }
        let notFound = APIError.notFound("Audio file not found")
        guard visit.source == VisitSource.recording.rawValue, let key = visit.storage_key,
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
        let presigned = req.recordingStorage.presignPlayback(key: key, filename: filename, type: type, for: req)
        return try JSONResponse.make(
            PlaybackResponse(
                presigned_url: presigned.url, expires_in: RecordingStorage.playbackURLLifetime,
                visit_id: id.lowercased, filename: filename))
    }
}
