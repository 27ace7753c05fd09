import Foundation
import Testing
import Transcription

/// The decoder's frequency slot (`FrequencySlot` in whisper_transcribe.py): after "<amount> <unit>", English that
/// sounds like a frequency is replaced by the frequency the audio prefers, and only then. Real model (tiny.en), real
/// speech (espeak-ng): the sentence is spoken as written, and the slot is given a mishearing of it, as the
/// recogniser writes them ("wise daily", "one staley"), to decide against the audio.
@Suite(.serialized) struct DoseFrequencySlotTests {
    typealias Tools = TranscriptionTools

    /// What `FrequencySlot.rescore` makes of `heard` for a recording of `spoken`.
    static func rescored(spoken: String, heard: String) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("slot-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let raw = folder.appendingPathComponent("raw.wav")
        let wav = folder.appendingPathComponent("speech.wav")
        try SpeechFixture.run("espeak-ng", ["-v", "en-us", "-s", "130", "-w", raw.path, spoken])
        try SpeechFixture.run("ffmpeg", [
            "-nostdin", "-loglevel", "error", "-y", "-i", raw.path, "-ac", "1", "-ar", "16000", "-c:a", "pcm_s16le",
            wav.path,
        ])
        let slot = DoseFrequencySlot.clinicalNote
        let driver = """
            import importlib.util, json, sys
            spec = importlib.util.spec_from_file_location("helper", sys.argv[1])
            helper = importlib.util.module_from_spec(spec); spec.loader.exec_module(helper)
            from faster_whisper import WhisperModel, decode_audio
            model = WhisperModel(helper.bundled_model_dir(), device="cpu", compute_type="int8", local_files_only=True)
            audio = decode_audio(sys.argv[2])
            pieces = [{"start": 0.0, "end": len(audio) / 16000, "text": sys.argv[3]}]
            helper.FrequencySlot(model, sys.argv[6], sys.argv[4].split("|"), sys.argv[5]).rescore(audio, pieces)
            print(json.dumps(pieces[0]["text"]))
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Tools.python)
        process.arguments = [
            "-c", driver, TranscriptionResources.whisperScript.path, wav.path, heard,
            slot.frequencies.joined(separator: "|"), slot.unitPattern,
            MedicationLexicon.bundled.prompt(petName: nil),
        ]
        process.environment = ["HF_HUB_OFFLINE": "1", "PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw TestSetupError("the slot driver failed") }
        return try JSONDecoder().decode(String.self, from: data)
    }

    @Test(.enabled(if: Tools.databaseFreeWhisperRunnable), arguments: [
        ("Start carprofen 75 milligrams twice daily.", "Start carprofen 75 milligrams wise daily.",
         "Start carprofen 75 milligrams twice daily."),
        // The hyphen the recogniser put between the unit and the slot goes with it.
        ("Start carprofen 75 milligrams twice daily.", "Start carprofen 75 milligrams-wise daily.",
         "Start carprofen 75 milligrams twice daily."),
        ("Start meloxicam 1.5 milligrams once daily.", "Start meloxicam 1.5 milligrams, one staley.",
         "Start meloxicam 1.5 milligrams, once daily."),
    ])
    func aMisheardFrequencyAfterADoseIsTheOneTheAudioSays(_ spoken: String, _ heard: String, _ expected: String)
        async throws
    {
        try Tools.requireWhisper()
        let text = try await Tools.engineGate.withPermit { try Self.rescored(spoken: spoken, heard: heard) }
        #expect(text == expected)
    }

    @Test(.enabled(if: Tools.databaseFreeWhisperRunnable), arguments: [
        // Not after a dose: the slot is only the words after "<amount> <unit>".
        ("She sleeps twice daily in the sun.", "She sleeps wise daily in the sun."),
        // After a dose, but nothing like a frequency: a route, a time of day.
        ("Give gabapentin 100 milligrams by mouth.", "Give gabapentin 100 milligrams by mouth."),
        ("Give 5 milligrams in the evening.", "Give 5 milligrams in the evening."),
        // A frequency the note already reads is left as heard.
        ("Start prednisone 10 milligrams once daily.", "Start prednisone 10 milligrams once daily."),
    ])
    func wordsThatAreNoMisheardFrequencyAfterADoseStayAsHeard(_ spoken: String, _ heard: String) async throws {
        try Tools.requireWhisper()
        let text = try await Tools.engineGate.withPermit { try Self.rescored(spoken: spoken, heard: heard) }
        #expect(text == heard)
    }
}
