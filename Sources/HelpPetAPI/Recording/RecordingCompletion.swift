import AppCore
import Fluent
import Foundation
import ObjectStorage
import SQLKit

/// Who completed a recording (`metadata.completion_source`, `helppet_recordings_completed_total{source}`).
enum CompletionSource: String, Sendable {
    case client, reconciler, reinitiate, multipart
}

/// What the completing party knows besides the stored object.
struct CompletionDetails: Sendable {
    var clientFileSize: Int64?
    var durationSeconds: Double?
    var deviceMetadata: [String: JSONValue]?
    /// Extra server metadata written with the transition (the legacy upload's file name and type).
    var extraMetadata: [String: JSONValue] = [:]

    static let none = CompletionDetails()
}

/// The one `new → processing` transition of a recording (contract §4.10 complete): every path (client complete,
/// re-initiate, legacy upload, reconciler, transcribe) goes through here, so concurrent completions produce exactly
/// one transition and one transcription job.
enum RecordingCompletion {
    /// Completes the visit if it is still `new` at `key`. The caller HEADed `object` before (no storage request
    /// happens inside the transaction). Returns true when this call made the transition.
    @discardableResult
    static func complete(
        visitID: UUID, key: String, object: ObjectInfo, source: CompletionSource, details: CompletionDetails,
        now: Date, on db: any Database, metrics: MetricsRegistry
    ) async throws -> Bool {
        let transitioned = try await db.writeTransaction { db -> Bool in
            guard let visit = try await VisitRows.locked(visitID, on: db), visit.state == .new, visit.storageKey == key
            else { return false }
            let jobID = try await TranscriptionJobQueue.requeue(visitID: visitID, storageKey: key, now: now, on: db)
            var patch = MetadataPatch()
            patch.set = details.extraMetadata
            patch.set["upload_completed_at"] = .string(WireTime.format(now))
            patch.set["completion_source"] = .string(source.rawValue)
            patch.set["file_size_bytes"] = .integer(object.size)
            if let client = details.clientFileSize, client != object.size {
                patch.set["client_file_size_bytes"] = .integer(client)
            } else {
                patch.remove.insert("client_file_size_bytes")
            }
            patch.set["duration_seconds"] = details.durationSeconds.map { .number($0) } ?? .null
            patch.set["device_metadata"] = .object(details.deviceMetadata ?? [:])
            patch.set["transcription_job_id"] = .string(jobID.lowercased)
            try await db.sql.raw("""
                UPDATE visits SET state = 'processing', reserved_at = NULL, reconcile_after = NULL,
                    metadata = \(try patch.sqlValue(current: visit.metadata, on: db)), updated_at = \(bind: now)
                WHERE id = \(bind: visitID) AND state = 'new' AND storage_key = \(bind: key)
                """).run()
            return true
        }
        if transitioned {
            metrics.counter("helppet_recordings_completed_total", labels: [("source", source.rawValue)]).increment()
        }
        return transitioned
    }
}
