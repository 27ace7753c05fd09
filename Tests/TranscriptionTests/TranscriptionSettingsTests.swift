import AppCore
import Foundation
import Testing

/// The transcription variables of `AppConfig` (README "Configuration"): defaults and clear start-up errors.
@Suite struct TranscriptionSettingsTests {
    static func load(_ values: [String: String]) throws -> TranscriptionSettings {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("transcription-settings-\(UUID())")
        defer { try? FileManager.default.removeItem(at: dir) }
        var env = values
        env["DATA_DIR"] = dir.path
        return try AppConfig.load(environmentName: "testing", env: EnvironmentReader(env)).transcription
    }

    @Test func defaults() throws {
        let settings = try Self.load([:])
        #expect(settings.engine == .whisper)
        #expect(settings.whisperModelDirectory == nil)
        #expect(settings.python == "./.venv-transcription/bin/python3")
        #expect(settings.concurrency == 1)
        #expect(settings.pollInterval == 2)
        #expect(settings.leaseSeconds == 300)
        #expect(settings.retryDelays == [30, 120])
    }

    @Test func values() throws {
        let settings = try Self.load([
            "TRANSCRIPTION_ENGINE": "pocketsphinx", "TRANSCRIPTION_CONCURRENCY": "3",
            "TRANSCRIPTION_POLL_INTERVAL_SECONDS": "0.25", "TRANSCRIPTION_RETRY_DELAYS_SECONDS": "1, 2",
            "TRANSCRIPTION_PYTHON": "/opt/venv/bin/python3", "WHISPER_MODEL_DIR": "/tmp",
        ])
        #expect(settings.engine == .pocketsphinx)
        #expect(settings.concurrency == 3)
        #expect(settings.pollInterval == 0.25)
        #expect(settings.retryDelays == [1, 2])
        #expect(settings.python == "/opt/venv/bin/python3")
        #expect(settings.whisperModelDirectory == "/tmp")
    }

    @Test func whisperModelTinyEnIsTheDefaultAndUsesTheWeightsInsideMeetingNoterModels() throws {
        #expect(try Self.load([:]).whisperModel == .tinyEn)
        let settings = try Self.load(["WHISPER_MODEL": "tiny.en"])
        #expect(settings.whisperModel == .tinyEn)
        #expect(settings.whisperModelDirectory == nil)
    }

    @Test func whisperModelBaseSelectsTheFolderSetupVenvAssemblesInTheEnvironment() throws {
        let venv = FileManager.default.temporaryDirectory.appendingPathComponent("venv-\(UUID())")
        defer { try? FileManager.default.removeItem(at: venv) }
        let folder = venv.appendingPathComponent("share/whisper-models/whisper-base")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("weights".utf8).write(to: folder.appendingPathComponent("model.bin"))
        let python = venv.appendingPathComponent("bin/python3").path

        let settings = try Self.load(["WHISPER_MODEL": "base", "TRANSCRIPTION_PYTHON": python])
        #expect(settings.whisperModel == .base)
        #expect(settings.whisperModelDirectory == folder.standardizedFileURL.path)

        // WHISPER_MODEL_DIR still decides the folder.
        let overridden = try Self.load([
            "WHISPER_MODEL": "base", "TRANSCRIPTION_PYTHON": python, "WHISPER_MODEL_DIR": "/tmp",
        ])
        #expect(overridden.whisperModelDirectory == "/tmp")
    }

    @Test(arguments: [
        (["TRANSCRIPTION_ENGINE": "vosk"], "TRANSCRIPTION_ENGINE must be whisper, pocketsphinx or off"),
        (["TRANSCRIPTION_CONCURRENCY": "0"], "TRANSCRIPTION_CONCURRENCY must be an integer between 1 and 32"),
        (["TRANSCRIPTION_POLL_INTERVAL_SECONDS": "fast"], "TRANSCRIPTION_POLL_INTERVAL_SECONDS must be a number"),
        (["TRANSCRIPTION_RETRY_DELAYS_SECONDS": "30"], "TRANSCRIPTION_RETRY_DELAYS_SECONDS must be two"),
        (["WHISPER_MODEL_DIR": "/nonexistent/model"], "WHISPER_MODEL_DIR '/nonexistent/model' is not a directory"),
        (["WHISPER_MODEL": "large-v3"], "WHISPER_MODEL must be tiny.en or base, got 'large-v3'"),
        (["WHISPER_MODEL": "base", "TRANSCRIPTION_PYTHON": "/nonexistent/venv/bin/python3"],
         "WHISPER_MODEL=base is not installed (no /nonexistent/venv/share/whisper-models/whisper-base/model.bin): "
            + "run scripts/transcription/setup-venv --model base"),
    ])
    func invalidValuesAreRefused(values: [String: String], message: String) {
        #expect {
            _ = try Self.load(values)
        } throws: { error in
            "\(error)".contains(message)
        }
    }
}
