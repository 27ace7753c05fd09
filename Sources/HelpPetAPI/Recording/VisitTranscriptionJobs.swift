import AppCore
import Fluent
import Foundation
import SQLKit
import Transcription
import Vapor

/// HelpPet's side of the transcription worker (contract §5.1): what a job needs to know about its visit, and the
/// write transactions that apply a result or a final failure. Each one re-reads the job and the visit under the
/// write lock and applies only if this worker still holds the job **and** the visit is still `processing` at the
/// job's storage key; a stale job (visit replaced, deleted or finished by hand meanwhile) becomes `discarded`.
/// Plain values only, so the `Transcription` library does not depend on HelpPet (the server plugs them together).
public enum VisitTranscriptionJobs {
    public struct JobVisit: Sendable {
        public var contentType: String
        public var petName: String?
        /// The practice's own clinic terms (PracticeVocabularyStore).
        public var practiceTerms: [String]
        /// The practice's current version of the template the appointment's type calls for (NoteTemplates).
        public var noteTemplate: ClinicalNoteTemplate
        /// The pet's recorded weight, for the note's dose check.
        public var petWeightKg: Double?
    }

    /// A transcription result in the contract's terms.
    public struct Result: Sendable {
        public var fullText: String
        /// `[{start, end, text}]`, ordered by start.
        public var segments: [JSONValue]
        public var engine: String
        public var model: String
        public var language: String
        public var audioDurationSeconds: Double
        public var realTimeFactor: Double
        public var completedAt: Date
        /// Written when the visit has no summary or only a draft one, and only when there is no `clinicalNote`: a
        /// note's summary is written from the note (`NoteSummaryText`).
        public var draftSummary: String?
        /// `[{heard, written}]`: words the clinic-vocabulary corrector rewrote, so a reviewer can check them.
        public var vocabularyCorrections: [JSONValue] = []
        /// The sectioned draft note (Transcription's `ClinicalNote` as JSON); written with the draft summary.
        public var clinicalNote: JSONValue?

        public init(
            fullText: String, segments: [JSONValue], engine: String, model: String, language: String,
            audioDurationSeconds: Double, realTimeFactor: Double, completedAt: Date, draftSummary: String?
        ) {
            self.fullText = fullText
            self.segments = segments
            self.engine = engine
            self.model = model
            self.language = language
            self.audioDurationSeconds = audioDurationSeconds
            self.realTimeFactor = realTimeFactor
            self.completedAt = completedAt
            self.draftSummary = draftSummary
        }
    }

    public enum Applied: Sendable { case applied, discarded, leaseLost }

    /// The content type and pet name of a job's visit; nil when the job is stale.
    public static func visit(visitID: UUID, storageKey: String, on db: any Database) async throws -> JobVisit? {
        guard let visit = try await VisitStore(db: db).transcriptionJobVisit(visitID, storageKey: storageKey) else {
            return nil
        }
        var contentType = AudioContentType.default.value
        if case .string(let stored)? = visit.metadata["content_type"] {
            contentType = AudioContentType.stored(stored).value
        }
        let practiceTerms = try await PracticeVocabularyStore(db: db).terms(practiceID: visit.practiceID)
        let templateKey = NoteTemplates.key(forAppointmentType: visit.appointmentType, title: visit.appointmentTitle)
        let template = try await NoteTemplateStore(db: db).current(practiceID: visit.practiceID, key: templateKey)
        return JobVisit(
            contentType: contentType, petName: visit.petName, practiceTerms: practiceTerms, noteTemplate: template,
            petWeightKg: visit.petWeight)
    }

    /// Streams the recording at `storageKey` into `destination`; false when it is missing.
    public static func download(storageKey: String, to destination: URL, app: Application) async throws -> Bool {
        let storage = app.recordingStorage
        return try await storage.store.download(bucket: storage.bucket, key: storageKey, to: destination) != nil
    }

    public static func applySuccess(
        jobID: UUID, owner: String, visitID: UUID, storageKey: String, result: Result, on db: any Database,
        metrics: MetricsRegistry? = nil
    ) async throws -> Applied {
        try await db.writeTransaction { db -> Applied in
            guard try await TranscriptionJobStore.holds(jobID: jobID, owner: owner, on: db) else { return .leaseLost }
            guard let visit = try await VisitStore(db: db).lockedRow(visitID), visit.state == .processing,
                visit.storageKey == storageKey
            else {
                try await TranscriptionJobStore.finish(jobID, as: .discarded, error: nil, now: result.completedAt, on: db)
                return .discarded
            }
            var patch = MetadataPatch()
            if NoteApproval.isApproved(visit.metadata), visit.fullText != result.fullText {
                patch.set["previous_transcripts"] = NoteApproval.keepingApprovedTranscript(
                    visit, supersededAt: result.completedAt)
            }
            patch.set["transcription_engine"] = .string(result.engine)
            patch.set["transcription_model"] = .string(result.model)
            patch.set["transcript_segments"] = .array(result.segments)
            patch.set["language"] = .string(result.language)
            patch.set["audio_duration_seconds"] = .number(result.audioDurationSeconds)
            patch.set["real_time_factor"] = .number(result.realTimeFactor)
            patch.set["transcription_completed_at"] = .string(WireTime.format(result.completedAt))
            patch.set["transcript_length"] = .integer(Int64(result.fullText.count))
            patch.set["transcription_progress"] = .number(1)
            patch.remove = ["transcription_error", "transcription_failed_at"]
            // Silence or noise only (the engine's voice filter kept nothing): a finished, empty transcript with a note
            // the app and the console can show, not an error and not a retry.
            if result.vocabularyCorrections.isEmpty {
                patch.remove.insert("vocabulary_corrections")
            } else {
                patch.set["vocabulary_corrections"] = .array(result.vocabularyCorrections)
            }
            if result.fullText.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
                patch.set["transcription_note"] = .string("no_speech")
            } else {
                patch.remove.insert("transcription_note")
            }
            // A summary a person wrote (or approved) is never overwritten; an empty or draft one is redrafted.
            var summary = visit.summary
            var drafted = false
            let isDraft = visit.metadata["summary_status"] == .string("draft")
            if (visit.summary ?? "").isEmpty || isDraft {
                // One note: the summary is written from the drafted note, not from a second reading of the text.
                let draft = result.clinicalNote.flatMap { StoredClinicalNote(["clinical_note": $0]) }
                    .flatMap(NoteSummaryText.render) ?? result.draftSummary
                summary = draft
                drafted = draft != nil
                if draft != nil {
                    patch.set["summary_status"] = .string("draft")
                } else {
                    patch.remove.insert("summary_status")
                }
                // The note goes with the draft: an approved note (and its clinical_note) is never redrafted.
                if let note = result.clinicalNote {
                    patch.set["clinical_note"] = note
                } else {
                    patch.remove.insert("clinical_note")
                }
            }
            try await VisitStore(db: db).markProcessed(
                visitID, key: storageKey, fullText: result.fullText, summary: summary,
                metadata: try patch.sqlValue(current: visit.metadata, on: db), now: result.completedAt)
            // A drafted note waits for the vet who recorded the visit: the push commits with the note.
            if drafted {
                try await NotificationOutboxStore(db: db).noteReady(visit, now: result.completedAt, metrics: metrics)
            }
            try await TranscriptionJobStore.finish(jobID, as: .done, error: nil, now: result.completedAt, on: db)
            return .applied
        }
    }

    /// `metadata.transcription_progress` (0...1, three decimals) while the job runs, only while this worker holds the
    /// job and the visit still waits for it.
    public static func recordProgress(
        _ fraction: Double, jobID: UUID, owner: String, visitID: UUID, storageKey: String, on db: any Database
    ) async throws {
        try await db.writeTransaction { db in
            guard try await TranscriptionJobStore.holds(jobID: jobID, owner: owner, on: db),
                let visit = try await VisitStore(db: db).lockedRow(visitID), visit.state == .processing,
                visit.storageKey == storageKey
            else { return }
            var patch = MetadataPatch()
            patch.set["transcription_progress"] = .number((min(max(fraction, 0), 1) * 1000).rounded() / 1000)
            try await VisitStore(db: db).setMetadata(
                visitID, try patch.sqlValue(current: visit.metadata, on: db), touching: nil,
                onlyWhileProcessingAt: storageKey)
        }
    }

    /// The last attempt failed: the visit becomes `failed` with `transcription_error` (the recording stays).
    public static func applyFailure(
        jobID: UUID, owner: String, visitID: UUID, storageKey: String, message: String, at now: Date,
        on db: any Database
    ) async throws -> Applied {
        let error = String(message.prefix(500))
        return try await db.writeTransaction { db -> Applied in
            guard try await TranscriptionJobStore.holds(jobID: jobID, owner: owner, on: db) else { return .leaseLost }
            guard let visit = try await VisitStore(db: db).lockedRow(visitID), visit.state == .processing,
                visit.storageKey == storageKey
            else {
                try await TranscriptionJobStore.finish(jobID, as: .discarded, error: error, now: now, on: db)
                return .discarded
            }
            var patch = MetadataPatch()
            patch.set["transcription_failed_at"] = .string(WireTime.format(now))
            patch.set["transcription_error"] = .string(error)
            try await VisitStore(db: db).markFailed(
                visitID, key: storageKey, metadata: try patch.sqlValue(current: visit.metadata, on: db), now: now)
            try await TranscriptionJobStore.finish(jobID, as: .failed, error: error, now: now, on: db)
            return .applied
        }
    }
}
