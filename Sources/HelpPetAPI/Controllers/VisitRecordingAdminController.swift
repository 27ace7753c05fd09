import AppCore
import Fluent
import Foundation
import SQLKit
import Transcription
import Vapor

/// `POST /visit-transcripts/{id}/transcribe` (transcribe again) and `DELETE /visit-transcripts/{id}` (ADMIN):
/// the visit endpoints that touch stored audio.
struct VisitRecordingAdminController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        let visits = routes.grouped("visit-transcripts")
        visits.post(":visit_id", "transcribe", use: transcribe)
        visits.delete(":visit_id", use: delete)
    }

    @Sendable func transcribe(req: Request) async throws -> Response {
        let caller = try req.caller
        try caller.requireStaff()
        let id = try req.pathID("visit_id", .visit)
        let visit = try await req.visibility.visit(id, for: caller)
        let noAudio = APIError.conflict("This visit has no audio to transcribe")
        guard visit.source == VisitSource.recording.rawValue, let key = visit.storageKey else { throw noAudio }
        let now = req.now

        if visit.state == .new {
            // Completed exactly like `complete`, which looks under every key issued for the slot.
            let landed = try await SlotLanding.find(visitID: id, storage: req.recordingStorage, on: req.db)
            try await RecordingCompletion.settle(
                visitID: id, landed: landed, source: .client, details: .none, actor: caller.id, now: now,
                on: req.db, metrics: req.core.metrics)
            guard let current = try await Visit.find(id, on: req.db), current.state != .new else { throw noAudio }
        } else {
            guard try await req.recordingStorage.head(key) != nil else { throw noAudio }
            try await req.db.writeTransaction { db in
                guard let current = try await VisitStore(db: db).lockedRow(id), current.state != .new,
                    current.storageKey == key,
                    try await !TranscriptionJobStore.isLive(visitID: id, storageKey: key, on: db)
                else { throw APIError.transcriptionInProgress }
                let jobID = try await TranscriptionJobStore.requeue(visitID: id, storageKey: key, now: now, on: db)
                var patch = MetadataPatch()
                patch.set["transcription_job_id"] = .string(jobID.lowercased)
                try await VisitStore(db: db).markProcessing(
                    id, metadata: try patch.sqlValue(current: current.metadata, on: db), now: now)
            }
        }
        guard let current = try await Visit.find(id, on: req.db) else { throw APIError.visitNotFound }
        return try JSONResponse.make(
            VisitTranscriptsController.response(current, caller: caller, req: req), status: .accepted)
    }

    struct DeletedResponse: Encodable, Sendable {
        let message: String
        let visitID: String

        enum CodingKeys: String, CodingKey {
            case message
            case visitID = "visit_id"
        }
    }

    /// Removes the visit (its jobs cascade) and frees its slot; the stored recordings are deleted afterwards.
    @Sendable func delete(req: Request) async throws -> Response {
        let caller = try req.caller
        try caller.requireAdmin()
        let id = try req.pathID("visit_id", .visit)
        guard let visit = try await Visit.find(id, on: req.db) else { throw APIError.visitNotFound }
        // Every key ever issued for it, not only the ones that became recordings.
        var keys = try await req.uploadIntents.allKeys(visitID: id)
        // The delete leaves its upload intents dead (visit_id NULL): the embedded store refuses their URLs from
        // now on, and the reconciler removes whatever still lands under them on S3 (docs/recording-safety.md).
        try await req.visits.delete(visit)

        keys += [visit.storageKey].compactMap { $0 }
        if case .array(let previous)? = visit.metadata["previous_recordings"] {
            for case .object(let entry) in previous { if case .string(let key)? = entry["s3_key"] { keys.append(key) } }
        }
        keys = Array(Set(keys)).sorted()
        let storage = req.recordingStorage
        let logger = req.logger
        Task {
            for key in keys {
                do { try await storage.store.delete(bucket: storage.bucket, key: key) } catch {
                    logger.warning("stored recording of a deleted visit was not removed", metadata: ["key": .string(key)])
                }
            }
        }
        return try JSONResponse.make(DeletedResponse(message: "Visit transcript deleted", visitID: id.lowercased))
    }
}
