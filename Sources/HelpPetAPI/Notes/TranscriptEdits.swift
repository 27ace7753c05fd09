import AppCore
import Fluent
import Foundation
import Transcription

/// Staff edits of a visit's transcript and drafted note, each in one write transaction that re-reads the row under
/// the write lock: the state checks and the metadata merge must see the row they change. Takes values, never the
/// request; the controller parses, authorises, calls this and encodes.
struct TranscriptEdits: Sendable {
    let db: any Database
    /// `MAIL_FROM`, for the owner's discharge email that commits with an approval.
    let mailFrom: String
    let metrics: MetricsRegistry?

    /// `PUT /visit-transcripts/{id}`: text, summary (which approves the note), a metadata merge and the manual state
    /// changes. Returns the visit as stored afterwards (unchanged when the edit changes nothing).
    func update(
        _ id: UUID, with change: VisitTranscriptUpdateRequest, by caller: Caller, objectPresent: Bool, now: Date
    ) async throws -> Visit {
        try await db.writeTransaction { db -> Visit in
            guard let current = try await VisitStore(db: db).lockedRow(id) else { throw APIError.visitNotFound }
            try TranscriptEditRules.checkState(change, of: current, objectPresent: objectPresent)
            if let fullText = change.fullText { try NoteApproval.requireTranscriptUnlocked(current, newFullText: fullText) }
            var patch = MetadataPatch(change.metadata ?? [:])
            var approvesNow = false
            if change.state == .processing, current.state == .failed, let key = current.storageKey {
                let jobID = try await TranscriptionJobStore.requeue(visitID: id, storageKey: key, now: now, on: db)
                patch.set["transcription_job_id"] = .string(jobID.lowercased)
            }
            if current.state == .processing, let to = change.state, to != .processing {
                try await TranscriptionJobStore.discardLive(visitID: id, now: now, on: db)
            }
            if !change.summary.isAbsent {
                try NoteApproval.requireNotApproved(current, newSummary: change.summary.applied(to: current.summary))
                // Re-sending the approved text keeps the first approval (who and when).
                if !NoteApproval.isApproved(current.metadata) {
                    let approved = change.summary.applied(to: current.summary)
                    let source = NoteApproval.source(ofApproved: approved, metadata: current.metadata)
                    patch.set.merge(NoteApproval.approvalKeys(by: caller.id, at: now, from: source)) { _, new in new }
                    approvesNow = true
                    // The approved note's follow-up goes into the pet's medical records, in this transaction.
                    if source == .note {
                        try await ApprovedNoteFollowUp.record(
                            visit: current, summary: approved, approvedBy: caller.id, now: now, on: db)
                    }
                }
            }
            let state = change.state ?? current.state
            let fullText = change.fullText ?? current.fullText
            let summary = change.summary.applied(to: current.summary)
            let unchanged = state == current.state && fullText == current.fullText && summary == current.summary
                && patch.applied(to: current.metadata) == current.metadata
            if unchanged { return current }

            try await VisitStore(db: db).updateTranscript(
                id, metadata: try patch.sqlValue(current: current.metadata, on: db), fullText: fullText,
                summary: summary, state: state, now: now)
            guard let updated = try await VisitStore(db: db).currentRow(id) else { throw APIError.visitNotFound }
            // The owner's discharge email commits with the approval, word for word what their page shows.
            if approvesNow {
                try await OutgoingEmails(db: db, mailFrom: mailFrom, metrics: metrics)
                    .enqueueDischargeInstructions(approved: updated, now: now)
            }
            return updated
        }
    }

    /// `PUT /visit-transcripts/{id}/note`: staff correct the drafted note before approving it. The summary is written
    /// again from the corrected note, so the app, the console and the owner's pages keep showing one text. 409 once
    /// the note is approved (addenda from then on) and while the recording is being transcribed.
    func correctNote(_ id: UUID, with correction: NoteCorrection, by caller: Caller, now: Date) async throws -> Visit {
        try await db.writeTransaction { db -> Visit in
            guard let current = try await VisitStore(db: db).lockedRow(id) else { throw APIError.visitNotFound }
            try NoteApproval.requireCorrectable(current)
            guard case .object(let note)? = current.metadata["clinical_note"] else {
                throw APIError.conflict("This visit has no drafted note to correct")
            }
            let (corrected, changes) = try correction.apply(to: note)
            if changes.isEmpty { return current }
            var patch = MetadataPatch()
            patch.set["clinical_note"] = .object(corrected)
            patch.set["note_corrections"] = NoteCorrection.history(current.metadata, adding: changes, by: caller.id, at: now)
            let summary = StoredClinicalNote(["clinical_note": .object(corrected)]).flatMap(NoteSummaryText.render)
            patch.set["summary_status"] = .string("draft")
            try await VisitStore(db: db).updateTranscript(
                id, metadata: try patch.sqlValue(current: current.metadata, on: db), fullText: current.fullText,
                summary: summary, state: current.state, now: now)
            guard let updated = try await VisitStore(db: db).currentRow(id) else { throw APIError.visitNotFound }
            return updated
        }
    }
}
