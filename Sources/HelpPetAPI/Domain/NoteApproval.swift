import AppCore
import Foundation

/// Approving a visit's note (any `PUT` with `summary`, as the contract has always said) records who approved
/// it and when, and locks it: a later `summary` is refused, corrections go into addenda (append-only). A new
/// recording of the visit (replace) starts a new note; the approved one moves into `previous_recordings` with its
/// approval.
enum NoteApproval {
    static func isApproved(_ metadata: [String: JSONValue]) -> Bool {
        metadata["summary_status"] == .string("approved")
    }

    /// Sending the approved text again is allowed and changes nothing: apps send whole objects back.
    static func requireNotApproved(_ visit: Visit, newSummary: String?) throws {
        guard isApproved(visit.metadata), newSummary != visit.summary else { return }
        throw APIError.conflict(
            "The note is approved and can no longer be changed. Add an addendum with "
                + "POST /api/v1/visit-transcripts/\(visit.id!.lowercased)/addenda")
    }

    /// A drafted note may be corrected until it is approved, and not while the worker is writing a new one.
    static func requireCorrectable(_ visit: Visit) throws {
        if isApproved(visit.metadata) {
            throw APIError.conflict(
                "The note is approved and can no longer be changed. Add an addendum with "
                    + "POST /api/v1/visit-transcripts/\(visit.id!.lowercased)/addenda")
        }
        if visit.state == .processing { throw APIError.transcriptionInProgress }
    }

    /// The transcript is the evidence the approved note was made from, so it is locked with the note. Sending the
    /// same text again changes nothing and is allowed; staff who need a new reading transcribe the recording again
    /// (`POST …/transcribe`), which keeps the approved transcript in `previous_transcripts`.
    static func requireTranscriptUnlocked(_ visit: Visit, newFullText: String) throws {
        guard isApproved(visit.metadata), newFullText != visit.fullText else { return }
        throw APIError.conflict(
            "The note is approved and its transcript can no longer be changed. Add an addendum with "
                + "POST /api/v1/visit-transcripts/\(visit.id!.lowercased)/addenda")
    }

    /// `previous_transcripts` with the visit's current transcript appended: what a new transcription of an approved
    /// visit keeps, so the text the note was approved from is never lost.
    static func keepingApprovedTranscript(_ visit: Visit, supersededAt: Date) -> JSONValue {
        var entries: [JSONValue] = []
        if case .array(let existing)? = visit.metadata["previous_transcripts"] { entries = existing }
        var entry: [String: JSONValue] = [
            "full_text": .string(visit.fullText), "superseded_at": .string(WireTime.format(supersededAt)),
        ]
        for key in ["transcript_segments", "transcription_engine", "transcription_model", "transcription_completed_at"] {
            if let value = visit.metadata[key] { entry[key] = value }
        }
        entries.append(.object(entry))
        return .array(entries)
    }

    /// What an approval approved: the drafted note (the summary sent is the note's own rendering, as the console and
    /// an app that sends the draft back do), or a text the vet wrote instead, which then is the whole approved note.
    enum Source: String, Sendable {
        case note, text
    }

    static func source(ofApproved summary: String?, metadata: [String: JSONValue]) -> Source {
        guard let note = StoredClinicalNote(metadata), let summary,
            summary.trimmingCharacters(in: .whitespacesAndNewlines)
                == (NoteSummaryText.render(note) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
        else { return .text }
        return .note
    }

    /// Notes approved before `summary_approved_from` existed were approved from their note.
    static func approvedSource(_ metadata: [String: JSONValue]) -> Source {
        guard case .string(let raw)? = metadata["summary_approved_from"], let source = Source(rawValue: raw) else {
            return StoredClinicalNote(metadata) == nil ? .text : .note
        }
        return source
    }

    static func approvalKeys(by userID: UUID, at now: Date, from source: Source) -> [String: JSONValue] {
        ["summary_status": .string("approved"), "summary_approved_by": .string(userID.lowercased),
         "summary_approved_at": .string(WireTime.format(now)), "summary_approved_from": .string(source.rawValue)]
    }
}
