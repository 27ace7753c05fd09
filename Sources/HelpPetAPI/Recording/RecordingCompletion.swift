import AppCore
import Fluent
import Foundation
import ObjectStorage
import SQLKit
import Transcription

/// Who completed a recording (`metadata.completion_source`, `helppet_recordings_completed_total{source}`).
enum CompletionSource: String, Sendable {
    case client, reconciler, reinitiate, multipart
}

/// What the completing party knows besides the stored object.
struct CompletionDetails: Sendable {
    var clientFileSize: Int64?
    var durationSeconds: Double?
    var deviceMetadata: [String: JSONValue]?

    static let none = CompletionDetails()
}

/// The one `new → processing` transition of a recording (contract §4.10 complete): every path (client complete,
/// re-initiate, legacy upload, reconciler, transcribe) goes through here, so concurrent completions produce exactly
/// one transition and one transcription job. It also attaches every other object that landed under one of the
/// visit's issued keys, so none is lost (docs/recording-safety.md).
enum RecordingCompletion {
    /// Applies what `SlotLanding` found (HEADs done before, no storage request inside the transaction):
    /// - a `new` visit is completed with the newest landed object of its current round (an `open` intent), which
    ///   becomes its current key, content type and file name;
    /// - every other landed object is appended to `metadata.previous_recordings` (`superseded_upload: true`).
    /// Intents another caller settled meanwhile are skipped. `actor` is the user whose request found the objects
    /// (nil for the reconciler). Returns true when this call completed the visit.
    @discardableResult
    static func settle(
        visitID: UUID, landed: [SlotLanding.Landed], source: CompletionSource, details: CompletionDetails,
        actor: UUID?, now: Date, on db: any Database, metrics: MetricsRegistry
    ) async throws -> Bool {
        guard !landed.isEmpty else { return false }
        let transitioned = try await db.writeTransaction { db -> Bool in
            guard let visit = try await VisitStore(db: db).lockedRow(visitID) else { return false }
            let waiting = Set(try await UploadIntentStore(db: db).unsettled(visitID: visitID).map(\.id))
            let fresh = landed.filter { waiting.contains($0.intent.id) }
            guard !fresh.isEmpty else { return false }

            var patch = MetadataPatch()
            var chosen: SlotLanding.Landed?
            if visit.state == .new {
                chosen = fresh.filter { $0.intent.status == .open }.max(by: Self.olderIssue)
            }
            if let chosen {
                let jobID = try await TranscriptionJobStore.requeue(
                    visitID: visitID, storageKey: chosen.intent.storageKey, now: now, on: db)
                patch = completionPatch(chosen, source: source, details: details, jobID: jobID, now: now)
            }
            let currentKey = chosen?.intent.storageKey ?? visit.storageKey
            let kept = fresh.filter { $0.intent.storageKey != currentKey }.sorted { olderIssue($0, $1) }
            if !kept.isEmpty {
                var previous: [JSONValue] = []
                if case .array(let existing)? = visit.metadata["previous_recordings"] { previous = existing }
                previous += kept.map { .object(previousEntry($0, actor: actor, now: now)) }
                patch.set["previous_recordings"] = .array(previous)
            }
            try await UploadIntentStore(db: db).markLanded(fresh.map(\.intent.id), now: now)

            if let chosen {
                try await VisitStore(db: db).markUploaded(
                    visitID, key: chosen.intent.storageKey, uploadMethod: chosen.intent.uploadMethod,
                    metadata: try patch.sqlValue(current: visit.metadata, on: db), now: now)
                return true
            }
            if !kept.isEmpty {
                try await VisitStore(db: db).setMetadata(
                    visitID, try patch.sqlValue(current: visit.metadata, on: db), touching: now)
            }
            return false
        }
        if transitioned {
            metrics.counter("helppet_recordings_completed_total", labels: [("source", source.rawValue)]).increment()
        }
        return transitioned
    }

    /// The order that decides which landed object becomes current: the last issued URL wins (it is what the
    /// client asked for last), then the higher attempt, then the key (for a total order).
    static func olderIssue(_ a: SlotLanding.Landed, _ b: SlotLanding.Landed) -> Bool {
        (a.intent.issuedAt, a.intent.attempt, a.intent.storageKey) < (b.intent.issuedAt, b.intent.attempt, b.intent.storageKey)
    }

    /// The metadata of the transition: the landed key's own type and file name, the completion facts.
    static func completionPatch(
        _ chosen: SlotLanding.Landed, source: CompletionSource, details: CompletionDetails, jobID: UUID, now: Date
    ) -> MetadataPatch {
        var patch = MetadataPatch()
        patch.set["s3_key"] = .string(chosen.intent.storageKey)
        patch.set["content_type"] = .string(chosen.intent.contentType)
        patch.set["upload_method"] = .string(chosen.intent.uploadMethod)
        if !chosen.intent.filename.isEmpty { patch.set["filename"] = .string(chosen.intent.filename) }
        patch.set["upload_completed_at"] = .string(WireTime.format(now))
        patch.set["completion_source"] = .string(source.rawValue)
        patch.set["file_size_bytes"] = .integer(chosen.object.size)
        if let client = details.clientFileSize, client != chosen.object.size {
            patch.set["client_file_size_bytes"] = .integer(client)
        } else {
            patch.remove.insert("client_file_size_bytes")
        }
        patch.set["duration_seconds"] = details.durationSeconds.map { .number($0) } ?? .null
        patch.set["device_metadata"] = .object(details.deviceMetadata ?? [:])
        patch.set["transcription_job_id"] = .string(jobID.lowercased)
        return patch
    }

    /// A `previous_recordings` entry (the contract's fields) for an object that landed next to the current one.
    static func previousEntry(_ landed: SlotLanding.Landed, actor: UUID?, now: Date) -> [String: JSONValue] {
        [
            "attempt": .integer(Int64(landed.intent.attempt)), "s3_key": .string(landed.intent.storageKey),
            "filename": .string(landed.intent.filename), "content_type": .string(landed.intent.contentType),
            "file_size_bytes": .integer(landed.object.size), "duration_seconds": .null,
            "upload_completed_at": .string(WireTime.format(now)), "state": .string(VisitState.new.rawValue),
            "full_text": .string(""), "summary": .null, "replaced_at": .string(WireTime.format(now)),
            "replaced_by": actor.map { .string($0.lowercased) } ?? .null, "superseded_upload": .bool(true),
        ]
    }
}
