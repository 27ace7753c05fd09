import AppCore
import Fluent
import FluentSQL
import Foundation
import SQLKit
import Transcription
import Vapor

extension VisitTranscriptsController {
    static let updatableKeys = ["full_text", "summary", "metadata", "state"]

    /// The state changes a PUT may make (§5.1); everything else belongs to the recording flows and the worker.
    static let putTransitions: Set<[VisitState]> = [
        [.processing, .processed], [.processing, .failed], [.failed, .processing], [.failed, .processed],
    ]

    /// The validated body of a PUT, in the contract's field order.
    struct Change: Sendable {
        var fullText: String?
        var summary: FieldPatch<String>
        var metadata: [String: JSONValue]?
        var state: VisitState?

        init(_ fields: FieldReader) throws {
            fullText = try fields.optionalString("full_text", trim: false, min: 0, max: 200_000, nullable: false)
                .valueIfPresent
            summary = try fields.optionalString("summary", trim: false, max: 10_000)
            metadata = try VisitMetadata.read(fields)
            state = try fields.optionalEnum("state", VisitState.self).valueIfPresent
        }
    }

    /// Staff edit of a transcript: text, summary (which approves it), a metadata merge and the manual state changes.
    @Sendable func update(req: Request) async throws -> Response {
        let caller = try req.caller
        try caller.requireStaff()
        let id = try req.pathID("visit_id", .visit)
        let fields = try req.jsonObject()
        let change = try Change(fields)
        guard fields.containsAny(of: Self.updatableKeys) else {
            throw APIError.nothingToUpdate
        }
        let stored = try await VisibilityStore(db: req.db).visit(id, for: caller)
        try Self.requireImmutablesUnchanged(fields, of: stored, req: req)
        // failed → processing needs the recording in storage; the HEAD happens before the transaction, whose
        // state check then re-reads the row.
        var headFound = false
        if change.state == .processing, stored.state == .failed, let key = stored.storageKey {
            headFound = try await req.recordingStorage.head(key) != nil
        }
        let objectPresent = headFound

        let now = req.now
        let mailFrom = req.application.core.config.mail.from
        let metrics = req.application.core.metrics
        let visit = try await req.db.writeTransaction { db -> Visit in
            // Re-read under the write lock: the state checks and the merge must see the row they change.
            guard let current = try await VisitStore.lockedRow(id, on: db) else { throw APIError.visitNotFound }
            try Self.checkState(change, of: current, objectPresent: objectPresent)
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

            try await VisitStore.updateTranscript(
                id, metadata: try patch.sqlValue(current: current.metadata, on: db), fullText: fullText,
                summary: summary, state: state, now: now, on: db)
            guard let updated = try await Visit.find(id, on: db) else { throw APIError.visitNotFound }
            // The owner's discharge email commits with the approval, word for word what their page shows.
            if approvesNow {
                try await OutgoingEmails(db: db, mailFrom: mailFrom, metrics: metrics)
                    .enqueueDischargeInstructions(approved: updated, now: now)
            }
            return updated
        }
        return try JSONResponse.make(Self.response(visit, caller: caller, req: req))
    }

    /// Ids, links, the visit date and the audio URL may be echoed back unchanged (clients send whole objects).
    static func requireImmutablesUnchanged(_ fields: FieldReader, of visit: Visit, req: Request) throws {
        try fields.requireUnchanged("uuid", current: visit.id!.lowercased)
        try fields.requireUnchanged("pet_id", current: visit.petID.lowercased)
        try fields.requireUnchanged("appointment_id", current: visit.appointmentID?.lowercased)
        try fields.requireUnchanged("practice_id", current: visit.practiceID.lowercased)
        try fields.requireUnchanged(
            "visit_date", current: String(Int64(visit.visitDate.timeIntervalSince1970.rounded(.down))))
        let url = VisitTranscriptResponse(visit, objectURL: objectURL(of: visit, req: req), hideDraftSummary: false)
            .audioTranscriptURL
        try fields.requireUnchanged("audio_transcript_url", current: url)
        try fields.requireUnchanged("created_by", current: visit.createdBy.lowercased)
    }

    /// The 409s of a PUT, in the contract's order.
    static func checkState(_ change: Change, of visit: Visit, objectPresent: Bool) throws {
        let from = visit.state
        if let to = change.state, to != from, !putTransitions.contains([from, to]) {
            throw APIError.conflict("Cannot change visit state from \(from.rawValue) to \(to.rawValue)")
        }
        // The worker owns the text while it transcribes; it would overwrite (or discard) a concurrent edit.
        if change.fullText != nil && from == .processing {
            throw APIError.transcriptionInProgress
        }
        if change.state == .processing && from == .failed && (visit.storageKey == nil || !objectPresent) {
            throw APIError.audioNotUploaded
        }
    }

}
