import Foundation

/// What the worker needs to know about a job's visit before working on it.
public struct TranscriptionJobInput: Sendable {
    public var contentType: String
    public var petName: String?
    /// The practice's own clinic terms: hotwords for the decoder and extra targets for the corrector.
    public var practiceTerms: [String]
    /// The sections the clinical note is drafted into (by the appointment's type).
    public var noteTemplate: NoteTemplate
    /// The pet's recorded weight, to check doses when the visit does not say one.
    public var petWeightKg: Double?
    public init(
        contentType: String, petName: String?, practiceTerms: [String] = [], noteTemplate: NoteTemplate,
        petWeightKg: Double? = nil
    ) {
        self.contentType = contentType
        self.petName = petName
        self.practiceTerms = practiceTerms
        self.noteTemplate = noteTemplate
        self.petWeightKg = petWeightKg
    }
}

/// A finished transcription, ready to be applied.
public struct TranscriptionOutcome: Sendable {
    public var transcript: Transcript
    /// The sectioned draft note tied to the audio, with its structured findings and flags (nil: nothing said).
    public var clinicalNote: ClinicalNote?
    /// Near-misses of clinic terms rewritten after decoding (VocabularyCorrector).
    public var corrections: [VocabularyCorrector.Correction]
    /// The engine's text before the corrector (for the benchmark's before/after).
    public var heardText: String
    public var realTimeFactor: Double
    public var completedAt: Date
}

/// How applying a result or a failure ended.
public enum TranscriptionApplyResult: Sendable, Equatable {
    case applied
    /// The visit was replaced, deleted or finished by hand meanwhile: the job is now `discarded`.
    case discarded
    /// This worker no longer holds the job (its lease expired and another worker took it, or it was re-queued).
    case leaseLost
}

/// The product side of transcription (HelpPet's visits), implemented where the product's code lives. Every
/// method that changes a visit also changes the job row, in the same write transaction, and only while the
/// visit is still `processing` at the job's storage key and the job is still held under `job.owner`.
public protocol TranscriptionJobTarget: Sendable {
    /// Nil when the job is stale (visit gone, no longer processing, or its storage key changed).
    func input(for job: ClaimedJob) async throws -> TranscriptionJobInput?
    /// Streams the recording into `destination`; false when the object is missing.
    func download(_ job: ClaimedJob, to destination: URL) async throws -> Bool
    /// How much of the recording is transcribed (0...1), while the job runs. Best effort: a failure to record it
    /// must not fail the job.
    func reportProgress(_ job: ClaimedJob, fraction: Double) async
    func applySuccess(_ job: ClaimedJob, outcome: TranscriptionOutcome) async throws -> TranscriptionApplyResult
    /// The last attempt failed: visit `failed` with `transcription_error`, job `failed`.
    func applyFailure(_ job: ClaimedJob, message: String, at: Date) async throws -> TranscriptionApplyResult
    /// Marks a stale job `discarded`.
    func discard(_ job: ClaimedJob) async throws
}
