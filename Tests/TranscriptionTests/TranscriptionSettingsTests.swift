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

    @Test(arguments: [
        (["TRANSCRIPTION_ENGINE": "vosk"], "TRANSCRIPTION_ENGINE must be whisper, pocketsphinx or off"),
        (["TRANSCRIPTION_CONCURRENCY": "0"], "TRANSCRIPTION_CONCURRENCY must be an integer between 1 and 32"),
        (["TRANSCRIPTION_POLL_INTERVAL_SECONDS": "fast"], "TRANSCRIPTION_POLL_INTERVAL_SECONDS must be a number"),
        (["TRANSCRIPTION_RETRY_DELAYS_SECONDS": "30"], "TRANSCRIPTION_RETRY_DELAYS_SECONDS must be two"),
        (["WHISPER_MODEL_DIR": "/nonexistent/model"], "WHISPER_MODEL_DIR '/nonexistent/model' is not a directory"),
    ])
    func invalidValuesAreRefused(values: [String: String], message: String) {
        #expect {
            _ = try Self.load(values)
        } throws: { error in
            "\(error)".contains(message)
        }
    }
}
