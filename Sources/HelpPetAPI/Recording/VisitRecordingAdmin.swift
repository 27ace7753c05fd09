import AppCore
import Fluent
import Foundation
import Logging
import Transcription

/// The staff's actions on a visit's stored audio: transcribing it again and deleting the visit with its recordings.
struct VisitRecordingAdmin: Sendable {
    let db: any Database
    let storage: RecordingStorage
    let metrics: MetricsRegistry

    static let noAudio = APIError.conflict("This visit has no audio to transcribe")

    /// Transcribes the recording again and returns the visit as it is afterwards. A recording still uploading is
    /// completed first, exactly like `complete` (it looks under every key issued for the slot); a finished one gets a
    /// new transcription job, unless one is already live for the same recording.
    func transcribeAgain(_ visit: Visit, actor: UUID, now: Date) async throws -> Visit {
        guard visit.source == VisitSource.recording.rawValue, let key = visit.storageKey, let id = visit.id else {
            throw Self.noAudio
        }
        if visit.state == .new {
            let landed = try await SlotLanding.find(visitID: id, storage: storage, on: db)
            try await RecordingCompletion.settle(
                visitID: id, landed: landed, source: .client, details: .none, actor: actor, now: now, on: db,
                metrics: metrics)
            guard let current = try await VisitStore(db: db).currentRow(id), current.state != .new else {
                throw Self.noAudio
            }
            return current
        }
        guard try await storage.head(key) != nil else { throw Self.noAudio }
        try await db.writeTransaction { tx in
            let visits = VisitStore(db: tx)
            guard let current = try await visits.lockedRow(id), current.state != .new, current.storageKey == key,
                try await !TranscriptionJobStore.isLive(visitID: id, storageKey: key, on: tx)
            else { throw APIError.transcriptionInProgress }
            let jobID = try await TranscriptionJobStore.requeue(visitID: id, storageKey: key, now: now, on: tx)
            var patch = MetadataPatch()
            patch.set["transcription_job_id"] = .string(jobID.lowercased)
            try await visits.markProcessing(id, metadata: try patch.sqlValue(current: current.metadata, on: tx), now: now)
        }
        guard let current = try await VisitStore(db: db).currentRow(id) else { throw APIError.visitNotFound }
        return current
    }

    /// Removes the visit (its jobs cascade) and frees its slot; the stored recordings, every key ever issued for the
    /// visit and not only the ones that became recordings, are deleted afterwards in the background.
    func delete(_ visit: Visit, logger: Logger) async throws {
        guard let id = visit.id else { return }
        var keys = try await UploadIntentStore(db: db).allKeys(visitID: id)
        // The delete leaves its upload intents dead (visit_id NULL): the embedded store refuses their URLs from
        // now on, and the reconciler removes whatever still lands under them on S3 (docs/recording-safety.md).
        try await VisitStore(db: db).delete(visit)

        keys += [visit.storageKey].compactMap { $0 }
        if case .array(let previous)? = visit.metadata["previous_recordings"] {
            for case .object(let entry) in previous { if case .string(let key)? = entry["s3_key"] { keys.append(key) } }
        }
        let storage = storage
        Task { [keys = Array(Set(keys)).sorted()] in
            for key in keys {
                do { try await storage.store.delete(bucket: storage.bucket, key: key) } catch {
                    logger.warning("stored recording of a deleted visit was not removed", metadata: ["key": .string(key)])
                }
            }
        }
    }
}
