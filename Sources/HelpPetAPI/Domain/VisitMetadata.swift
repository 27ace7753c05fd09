import AppCore
import Foundation

/// The rules of a visit's `metadata` object (§4.0, §4.9): client keys are free, server keys are protected.
enum VisitMetadata {
    /// Keys only the server writes, in the contract's order (the first one found is the one reported).
    static let serverManagedKeys = [
        "s3_key", "s3_bucket", "filename", "content_type", "estimated_duration_seconds", "uploaded_by",
        "upload_method", "attempt", "appointment_id", "upload_initiated_at", "upload_url_issued_at",
        "upload_completed_at", "completion_source", "file_size_bytes", "client_file_size_bytes", "duration_seconds",
        "device_metadata", "previous_recordings", "transcription_job_id", "transcription_engine", "transcription_model",
        "transcription_completed_at", "transcription_failed_at", "transcription_error", "transcript_length",
        "transcript_segments", "language", "audio_duration_seconds", "real_time_factor", "summary_status",
        "transcription_note", "vocabulary_corrections", "transcription_progress",
        // Who approved the note, and when (NoteApproval); the worker's sectioned note (StoredClinicalNote).
        "summary_approved_by", "summary_approved_at", "clinical_note",
        // Whether the drafted note or a text of the vet's own was approved; the vet's corrections of the draft.
        "summary_approved_from", "note_corrections",
        // The transcripts an approved note was made from, kept when the recording is transcribed again.
        "previous_transcripts",
        // Who confirmed the owner's agreement to recording, and when (RecordingConsent).
        "recording_consent",
    ]

    /// The `metadata` field of a client request: an object within the size limits without server-managed keys.
    static func read(_ fields: FieldReader) throws -> [String: JSONValue]? {
        guard let sent = try fields.optionalBoundedObject("metadata", maxBytes: 65_536, maxKeys: 100) else {
            return nil
        }
        if let key = serverManagedKeys.first(where: { sent[$0] != nil }) {
            throw APIError.badRequest("metadata key '\(key)' is managed by the server")
        }
        return sent
    }
}

/// A top-level metadata merge: a key with a value replaces the stored key whole (nested objects are not merged
/// into), a key sent as `null` removes it, unmentioned keys stay. Metadata is never replaced wholesale.
struct MetadataPatch: Sendable {
    var set: [String: JSONValue] = [:]
    var remove: Set<String> = []

    init(_ sent: [String: JSONValue] = [:]) {
        for (key, value) in sent {
            if value.isNull { remove.insert(key) } else { set[key] = value }
        }
    }

    func applied(to current: [String: JSONValue]) -> [String: JSONValue] {
        var merged = current
        for key in remove { merged.removeValue(forKey: key) }
        for (key, value) in set { merged[key] = value }
        return merged
    }
}
