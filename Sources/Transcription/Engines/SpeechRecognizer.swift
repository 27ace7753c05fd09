import Foundation

/// One timed piece of a transcript.
public struct TranscriptSegment: Sendable, Equatable, Codable {
    public var start: Double
    public var end: Double
    public var text: String
    /// Whisper's average token log-probability for the segment (nil from engines that do not give one): how sure
    /// the recogniser was, so a number it guessed can be flagged for a person (ClinicalNoteDrafter).
    public var averageLogProbability: Double?

    enum CodingKeys: String, CodingKey { case start, end, text, averageLogProbability = "avg_logprob" }

    public init(start: Double, end: Double, text: String, averageLogProbability: Double? = nil) {
        self.start = start
        self.end = end
        self.text = text
        self.averageLogProbability = averageLogProbability
    }
}

/// What a recogniser heard in one WAV file.
public struct Transcript: Sendable, Equatable {
    public var text: String
    public var segments: [TranscriptSegment]
    public var language: String
    public var durationSeconds: Double
    public var engine: String
    public var model: String

    public init(
        text: String, segments: [TranscriptSegment], language: String, durationSeconds: Double, engine: String,
        model: String
    ) {
        self.text = text
        self.segments = segments
        self.language = language
        self.durationSeconds = durationSeconds
        self.engine = engine
        self.model = model
    }
}

/// An offline speech recogniser (contract §5.1). Engines only ever read the prepared 16 kHz mono WAV.
/// There is no fake engine in production: a result always comes from a real recogniser.
public protocol SpeechRecognizer: Sendable {
    /// `whisper` or `pocketsphinx` (`metadata.transcription_engine`).
    var name: String { get }
    /// True when the engine is installed and can run now (checked again while it is not).
    func isAvailable() async -> Bool
    func transcribe(wav: URL, hints: DecoderHints, workDirectory: URL) async throws -> Transcript
}

/// What the decoder is told before it listens: context and spellings (`prompt`) and terms to favour (`hotwords`),
/// and what may follow a dose (`doseSlot`), which it checks against the audio after decoding. Engines that cannot
/// use them ignore them.
public struct DecoderHints: Sendable, Equatable {
    public var prompt: String
    public var hotwords: String
    public var doseSlot: DoseFrequencySlot?
    public init(prompt: String = "", hotwords: String = "", doseSlot: DoseFrequencySlot? = nil) {
        self.prompt = prompt
        self.hotwords = hotwords
        self.doseSlot = doseSlot
    }
}

/// The words the note reads as a dose's frequency, and the units a dose is said in: after "<amount> <unit>", the
/// recogniser's English ("wise daily", "one staley") is scored against these frequencies on the audio
/// (`whisper_transcribe.py`, `FrequencySlot`). Both come from the note's extractor, so the decoder checks exactly
/// what the note will read.
public struct DoseFrequencySlot: Sendable, Equatable {
    /// One phrase per frequency, as said: "twice daily", "every 8 hours".
    public var frequencies: [String]
    /// A regular expression of the dose units ("mg|milligrams?|…").
    public var unitPattern: String

    public init(frequencies: [String], unitPattern: String) {
        self.frequencies = frequencies
        self.unitPattern = unitPattern
    }

    /// The frequencies and units of the clinical note's extractor.
    public static let clinicalNote = DoseFrequencySlot(
        frequencies: ClinicalExtractor.spokenFrequencies, unitPattern: ClinicalExtractor.doseUnit)
}

/// The duration of a canonical PCM WAV file from its size (16 kHz, mono, 16-bit after preparation).
enum WAVDuration {
    static func seconds(of url: URL) -> Double {
        let size = (try? FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int) ?? 0
        return max(0, Double(size - 44)) / 32_000
    }
}
