import AppCore
import Fluent
import Foundation
import SQLKit

/// The recording columns a playback needs.
struct PlaybackRow: Decodable, Sendable {
    let source: String
    let storageKey: String?
    let metadata: [String: JSONValue]

    enum CodingKeys: String, CodingKey {
        case source
        case storageKey = "storage_key"
        case metadata
    }
}

/// Statements of the visits aggregate used by the recording read path.
struct VisitStore: Sendable {
    let db: any Database

    /// `GET /visit-transcripts/audio/playback/{id}`: the visit's recording columns if the caller may see the visit
    /// (CallerScope, inside the one statement); nil otherwise.
    func playback(_ id: UUID, for caller: Caller) async throws -> PlaybackRow? {
        try await db.sql.raw("""
            SELECT v.source, v.storage_key, v.metadata FROM visits v
            WHERE v.id = \(bind: id) AND \(CallerScope.visit("v", caller: caller))
            """).first(decoding: PlaybackRow.self)
    }
}

/// The visit writes of the recording and transcript controllers.
extension VisitStore {
    /// A new recording slot: one `INSERT … ON CONFLICT DO NOTHING RETURNING id` under the slot's unique index;
    /// false when a concurrent request inserted the slot first.
    func insertRecordingSlot(
        id: UUID, petID: UUID, practiceID: UUID, appointmentID: UUID?, visitDate: Date, recordingDay: String?,
        key: String, metadata: [String: JSONValue], createdBy: UUID, now: Date
    ) async throws -> Bool {
        let rows = try await db.sql.raw("""
            INSERT INTO visits (id, pet_id, practice_id, appointment_id, source, state, visit_date, recording_day,
                full_text, storage_key, attempt, upload_method, upload_url_issued_at, metadata, created_by,
                created_at, updated_at)
            VALUES (\(bind: id), \(bind: petID), \(bind: practiceID), \(bind: appointmentID),
                'recording', 'new', \(bind: visitDate), \(bind: recordingDay), '', \(bind: key), 1, 'presigned_post',
                \(bind: now), \(try jsonValue(metadata)), \(bind: createdBy),
                \(bind: now), \(bind: now))
            ON CONFLICT DO NOTHING RETURNING id
            """).all()
        return !rows.isEmpty
    }

    /// A fresh upload URL for a pending slot (reissue), or for the next attempt of a replaced recording (`replace`
    /// also resets the transcript, the state and the attempt).
    func issueUpload(
        _ id: UUID, key: String, metadata: SQLQueryString, replacingAttempt attempt: Int?, now: Date
    ) async throws {
        if let attempt {
            try await db.sql.raw("""
                UPDATE visits SET state = 'new', attempt = \(bind: attempt), storage_key = \(bind: key),
                    audio_transcript_url = NULL, full_text = '', summary = NULL, upload_method = 'presigned_post',
                    upload_url_issued_at = \(bind: now), reserved_at = NULL, reconcile_after = NULL,
                    metadata = \(metadata), updated_at = \(bind: now)
                WHERE id = \(bind: id)
                """).run()
        } else {
            try await db.sql.raw("""
                UPDATE visits SET storage_key = \(bind: key), upload_method = 'presigned_post',
                    upload_url_issued_at = \(bind: now), reserved_at = NULL, reconcile_after = NULL,
                    metadata = \(metadata), updated_at = \(bind: now)
                WHERE id = \(bind: id)
                """).run()
        }
    }

    /// Staff's re-transcription: back to `processing` with the new job in the metadata.
    func markProcessing(_ id: UUID, metadata: SQLQueryString, now: Date) async throws {
        try await db.sql.raw("""
            UPDATE visits SET state = 'processing', metadata = \(metadata), updated_at = \(bind: now)
            WHERE id = \(bind: id)
            """).run()
    }

    /// Staff's edit of a transcript.
    func updateTranscript(
        _ id: UUID, metadata: SQLQueryString, fullText: String, summary: String?, state: VisitState, now: Date
    ) async throws {
        try await db.sql.raw("""
            UPDATE visits SET metadata = \(metadata), full_text = \(bind: fullText), summary = \(bind: summary),
                state = \(bind: state.rawValue), updated_at = \(bind: now)
            WHERE id = \(bind: id)
            """).run()
    }
}
