import Foundation
import Testing
import Transcription

/// "No text from silence or noise" (docs/scribe.md): Whisper invents sentences where nobody speaks ("You", "Thank you for
/// watching."); the voice activity filter in front of it must leave such audio empty, and must not eat the words
/// next to long pauses in a real visit. Real engine, generated audio (ffmpeg's noise sources, espeak-ng).
@Suite(.serialized) struct SilenceAndNoiseTests {
    typealias Tools = TranscriptionTools

    /// ffmpeg `lavfi` sources for a minute of audio nobody speaks in, as the worker's 16 kHz mono WAV.
    static let speechless: [(name: String, filter: String)] = [
        ("silence", "anullsrc=r=16000:cl=mono"),
        // A fixed seed: the same minute of noise every run (a random one once let the filter pass "You").
        ("white noise", "anoisesrc=color=white:amplitude=0.3:r=16000:seed=1"),
        // A treatment room: pink noise (ventilation, voices far away), mains hum and a monitor's beep every 5 s.
        ("clinic noise",
         "anoisesrc=color=pink:amplitude=0.08:r=16000:seed=2[n];sine=frequency=60:sample_rate=16000,volume=0.3[h];"
            + "sine=frequency=1000:sample_rate=16000,volume='if(lt(mod(t,5),0.2),0.3,0)':eval=frame[b];"
            + "[n][h][b]amix=inputs=3:normalize=0"),
    ]

    static func wav(lavfi filter: String, seconds: Int, in folder: URL) throws -> URL {
        let wav = folder.appendingPathComponent("\(UUID().uuidString.prefix(8)).wav")
        try SpeechFixture.run("ffmpeg", [
            "-nostdin", "-loglevel", "error", "-y", "-filter_complex", filter, "-t", "\(seconds)",
            "-ac", "1", "-ar", "16000", "-c:a", "pcm_s16le", wav.path,
        ])
        return wav
    }

    static func recognizer() -> WhisperRecognizer {
        WhisperRecognizer(python: Tools.python, modelDirectory: nil, timeout: 600)
    }

    static func folder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("silence-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder
    }

    @Test(.enabled(if: Tools.databaseFreeWhisperRunnable), arguments: speechless.map(\.name))
    func aMinuteWithoutSpeechGivesAnEmptyTranscript(_ name: String) async throws {
        try Tools.requireWhisper()
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let filter = try #require(Self.speechless.first { $0.name == name }).filter
        let wav = try Self.wav(lavfi: filter, seconds: 60, in: folder)
        let transcript = try await TranscriptionTools.engineGate.withPermit {
            try await Self.recognizer().transcribe(wav: wav, hints: DecoderHints(), workDirectory: folder)
        }
        #expect(transcript.text.isEmpty, "\(name): \(transcript.text)")
        #expect(transcript.segments.isEmpty, "\(name): \(transcript.segments)")
        #expect(transcript.durationSeconds > 59, "the duration is the recording's, not the speech's")
    }

    /// Three sentences with 20 s of silence between them: the words at each pause's edges survive the filter.
    @Test(.enabled(if: Tools.databaseFreeWhisperRunnable)) func wordsAtTheEdgesOfLongPausesAreKept() async throws {
        try Tools.requireWhisper()
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sentences = [
            "Bella presents with vomiting since yesterday.", "Her temperature is one hundred and three degrees.",
            "Recheck her in two weeks.",
        ]
        var parts: [URL] = []
        for (index, sentence) in sentences.enumerated() {
            let spoken = folder.appendingPathComponent("s\(index).wav")
            try SpeechFixture.run("espeak-ng", ["-v", "en", "-s", "140", "-w", spoken.path, sentence])
            let resampled = folder.appendingPathComponent("p\(index).wav")
            try SpeechFixture.run("ffmpeg", [
                "-nostdin", "-loglevel", "error", "-y", "-i", spoken.path, "-ac", "1", "-ar", "16000",
                "-c:a", "pcm_s16le", resampled.path,
            ])
            parts.append(resampled)
        }
        let gap = try Self.wav(lavfi: "anullsrc=r=16000:cl=mono", seconds: 20, in: folder)
        let list = folder.appendingPathComponent("list.txt")
        try [parts[0], gap, parts[1], gap, parts[2]].map { "file '\($0.path)'" }.joined(separator: "\n")
            .write(to: list, atomically: true, encoding: .utf8)
        let visit = folder.appendingPathComponent("visit.wav")
        try SpeechFixture.run("ffmpeg", [
            "-nostdin", "-loglevel", "error", "-y", "-f", "concat", "-safe", "0", "-i", list.path,
            "-c:a", "pcm_s16le", visit.path,
        ])

        let transcript = try await TranscriptionTools.engineGate.withPermit {
            try await Self.recognizer().transcribe(wav: visit, hints: DecoderHints(), workDirectory: folder)
        }
        let text = transcript.text.lowercased()
        // The last word before each pause and the first after it.
        for word in ["yesterday", "her temperature", "degrees", "recheck", "weeks"] {
            #expect(text.contains(word), "'\(word)' lost at a pause: \(text)")
        }
        // Segment times stay on the recording's clock (the filter's cuts are mapped back).
        let last = try #require(transcript.segments.last)
        #expect(last.start > 40, "\(transcript.segments)")
    }

    /// A visit whose kept speech runs just over 30 s (two parts around an 8 s pause, the end-to-end browser test's
    /// visit): Whisper's last window holds only the tail of "weeks", and tiny.en wrote "Okay." there, which became a
    /// sentence of the note's plan. The transcript ends on the last word said.
    @Test(.enabled(if: Tools.databaseFreeWhisperRunnable)) func aVisitJustOverThirtySecondsOfSpeechEndsOnItsLastWord() async throws {
        try Tools.requireWhisper()
        let folder = try Self.folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let parts = [
            "Bella is here for a recheck of her ears. The owner says she is eating well. Her temperature is one "
                + "hundred one point five degrees and she weighs twenty two kilograms.",
            "The left ear is still red. Give carprofen seventy five milligrams by mouth twice a day for five days. "
                + "Give amoxicillin two hundred fifty milligrams by mouth twice a day for ten days. Recheck in two weeks.",
        ]
        var spoken: [URL] = []
        for (index, text) in parts.enumerated() {
            let part = folder.appendingPathComponent("part\(index).wav")
            try SpeechFixture.run("espeak-ng", ["-v", "en-us", "-s", "130", "-w", part.path, text])
            spoken.append(part)
        }
        let visit = folder.appendingPathComponent("visit.wav")
        try SpeechFixture.run("ffmpeg", [
            "-nostdin", "-loglevel", "error", "-y", "-i", spoken[0].path, "-f", "lavfi", "-t", "8",
            "-i", "anullsrc=r=16000:cl=mono", "-i", spoken[1].path, "-filter_complex",
            "[0:a]aresample=16000[a];[1:a]aresample=16000[s];[2:a]aresample=16000[b];[a][s][b]concat=n=3:v=0:a=1",
            "-ar", "16000", "-ac", "1", visit.path,
        ])
        let hints = DecoderHints(prompt: MedicationLexicon.bundled.prompt(petName: "Bella"))
        let transcript = try await TranscriptionTools.engineGate.withPermit {
            try await Self.recognizer().transcribe(wav: visit, hints: hints, workDirectory: folder)
        }
        let last = try #require(transcript.segments.last)
        #expect(last.text.lowercased().contains("weeks"), "\(transcript.segments.map(\.text))")
        #expect(transcript.text.lowercased().contains("carprofen"), "\(transcript.text)")
    }

    /// End to end: a silent recording becomes a processed visit with an empty transcript and a `no_speech` note,
    /// not a failure, and no draft summary is made of nothing.
    @Test(.enabled(if: Tools.whisperRunnable)) func aSilentRecordingIsProcessedWithANoSpeechNote() async throws {
        try Tools.requireWhisper()
        try await withEngineServerDatabase { database, group in
            let server = try await group.start(database, env: Tools.env(engine: "whisper"))
            let vet = try await server.client.login(Demo.vet1)
            let harness = TranscriptionHarness(api: server, token: vet)
            let m4a = database.directory.appendingPathComponent("silent.m4a")
            try SpeechFixture.run("ffmpeg", [
                "-nostdin", "-loglevel", "error", "-y", "-f", "lavfi", "-i", "anullsrc=r=44100:cl=mono", "-t", "60",
                "-c:a", "aac", "-b:a", "32k", m4a.path,
            ])
            let visitID = try await harness.record(pet: Demo.pet(1), bytes: Array(try Data(contentsOf: m4a)))
            let visit = try await harness.waitForState(visitID, ["processed", "failed"])
            #expect(visit.json["state"].string == "processed", "\(visit)")
            #expect(visit.json["full_text"].string == "", "\(visit)")
            #expect(visit.json["summary"].isNull, "\(visit)")
            let metadata = visit.json["metadata"]
            #expect(metadata["transcription_note"].string == "no_speech", "\(metadata)")
            #expect(metadata["transcription_error"].isAbsent)
            #expect(metadata["summary_status"].isAbsent)
            #expect(metadata["transcript_segments"].array?.isEmpty == true)
        }
    }
}
