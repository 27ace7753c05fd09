import AppCore
import Foundation

/// One recording on disk → a finished transcription: ffmpeg → engine (with the clinic's decoder hints) → clinic
/// vocabulary corrector → draft summary. What the worker does after downloading a job's object, and what
/// `server transcribe` does for a file (the benchmark measures this exact path).
public struct RecordingTranscriber: Sendable {
    public let recognizer: any SpeechRecognizer
    public let preparation: AudioPreparation
    public let drafter: SummaryDrafter
    public let vocabulary: ClinicVocabulary
    public let clock: any AppClock

    public init(
        recognizer: any SpeechRecognizer, preparation: AudioPreparation, drafter: SummaryDrafter = SummaryDrafter(),
        vocabulary: ClinicVocabulary = .bundled, clock: any AppClock
    ) {
        self.recognizer = recognizer
        self.preparation = preparation
        self.drafter = drafter
        self.vocabulary = vocabulary
        self.clock = clock
    }

    /// `source` is removed once converted; work files go to `workDirectory`.
    public func transcribe(
        _ source: URL, contentType: String, petName: String?, workDirectory: URL
    ) async throws -> TranscriptionOutcome {
        let wav = try await preparation.convert(source, contentType: contentType)
        try? FileManager.default.removeItem(at: source)
        try Task.checkCancellation()
        let started = Date()
        let hints = DecoderHints(prompt: drafter.lexicon.prompt(petName: petName), hotwords: vocabulary.hotwords)
        let heard = try await recognizer.transcribe(wav: wav, hints: hints, workDirectory: workDirectory)
        // Built here, not at start: the word list behind it (~100k words) is loaded on the first transcription
        // only, so a node that never transcribes does not carry it.
        let (transcript, corrections) = vocabulary.corrector().correct(heard)
        let elapsed = Date().timeIntervalSince(started)
        try Task.checkCancellation()
        let rtf = transcript.durationSeconds > 0 ? elapsed / transcript.durationSeconds : 0
        return TranscriptionOutcome(
            transcript: transcript, draftSummary: drafter.summary(of: transcript.text), corrections: corrections,
            heardText: heard.text,
            realTimeFactor: (rtf * 1000).rounded() / 1000, completedAt: clock.now())
    }
}
