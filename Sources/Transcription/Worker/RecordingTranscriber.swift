import AppCore
import Foundation

/// One recording on disk → a finished transcription: ffmpeg → engine (with the clinic's decoder hints) → clinic
/// vocabulary corrector → clinical note (the one draft;
/// the API renders the summary text from it). What the worker does after downloading a job's object, and what
/// `server transcribe` does for a file (the benchmark measures this exact path).
public struct RecordingTranscriber: Sendable {
    public let recognizer: any SpeechRecognizer
    public let preparation: AudioPreparation
    public let lexicon: MedicationLexicon
    public let vocabulary: ClinicVocabulary
    public let clock: any AppClock

    public init(
        recognizer: any SpeechRecognizer, preparation: AudioPreparation, lexicon: MedicationLexicon = .bundled,
        vocabulary: ClinicVocabulary = .bundled, clock: any AppClock
    ) {
        self.recognizer = recognizer
        self.preparation = preparation
        self.lexicon = lexicon
        self.vocabulary = vocabulary
        self.clock = clock
    }

    /// `source` is removed once converted; work files go to `workDirectory`. A recording longer than 1.25
    /// `chunkSeconds` is transcribed in chunks cut in pauses (AudioChunkPlan), and `progress` is told the finished
    /// fraction (0 < f ≤ 1) after each chunk; a shorter one is one chunk, reported once.
    public func transcribe(
        _ source: URL, contentType: String, petName: String?, workDirectory: URL, chunkSeconds: Double = 600,
        noteTemplate: NoteTemplate, petWeightKg: Double? = nil,
        progress: @Sendable (Double) async -> Void = { _ in }
    ) async throws -> TranscriptionOutcome {
        let wav = try await preparation.convert(source, contentType: contentType)
        try? FileManager.default.removeItem(at: source)
        try Task.checkCancellation()
        let started = Date()
        let hints = DecoderHints(
            prompt: lexicon.prompt(petName: petName), hotwords: vocabulary.hotwords, doseSlot: .clinicalNote)
        let wave = try PCMWave(wav)
        let plan = try AudioChunkPlan.make(wave, chunkSeconds: chunkSeconds)
        var heard: Transcript
        if plan.chunks.count == 1 {
            heard = try await recognizer.transcribe(wav: wav, hints: hints, workDirectory: workDirectory)
            await progress(1)
        } else {
            var parts: [(offset: Double, transcript: Transcript)] = []
            for (index, range) in plan.chunks.enumerated() {
                let chunk = workDirectory.appendingPathComponent("chunk-\(index).wav")
                try wave.writeSlice(range, to: chunk)
                let part = try await recognizer.transcribe(wav: chunk, hints: hints, workDirectory: workDirectory)
                try? FileManager.default.removeItem(at: chunk)
                parts.append((Double(range.lowerBound) / Double(PCMWave.sampleRate), part))
                try Task.checkCancellation()
                await progress(Double(index + 1) / Double(plan.chunks.count))
            }
            heard = Self.joined(parts, duration: wave.duration)
        }
        // Built here, not at start: the word list behind it (~100k words) is loaded on the first transcription
        // only, so a node that never transcribes does not carry it.
        let (transcript, corrections) = vocabulary.corrector().correct(heard)
        let elapsed = Date().timeIntervalSince(started)
        try Task.checkCancellation()
        let rtf = transcript.durationSeconds > 0 ? elapsed / transcript.durationSeconds : 0
        let note = ClinicalNoteDrafter(lexicon: lexicon).draft(
            transcript.segments, template: noteTemplate, petWeightKg: petWeightKg)
        return TranscriptionOutcome(
            // The API writes the summary from the note; no second extraction of the transcript here.
            transcript: transcript, clinicalNote: note,
            corrections: corrections,
            heardText: heard.text, realTimeFactor: (rtf * 1000).rounded() / 1000, completedAt: clock.now())
    }

    /// One transcript of the chunks: segments moved to the recording's clock, texts joined in order.
    static func joined(_ parts: [(offset: Double, transcript: Transcript)], duration: Double) -> Transcript {
        let rounded = { (value: Double) in (value * 1000).rounded() / 1000 }
        let segments = parts.flatMap { part in
            part.transcript.segments.map {
                TranscriptSegment(
                    start: rounded($0.start + part.offset), end: rounded($0.end + part.offset), text: $0.text,
                    averageLogProbability: $0.averageLogProbability)
            }
        }
        let first = parts.first?.transcript
        return Transcript(
            text: parts.map(\.transcript.text).filter { !$0.isEmpty }.joined(separator: " "), segments: segments,
            language: first?.language ?? "en", durationSeconds: duration, engine: first?.engine ?? "",
            model: first?.model ?? "")
    }
}
