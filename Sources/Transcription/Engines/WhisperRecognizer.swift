import Foundation

/// Whisper through faster-whisper (CTranslate2, CPU) in a project-local Python environment, run as a child
/// process (`Resources/whisper_transcribe.py`) with `HF_HUB_OFFLINE=1`: nothing is downloaded at run time.
public final class WhisperRecognizer: SpeechRecognizer {
    public let name = "whisper"
    let python: String
    let script: String
    let modelDirectory: String?
    let timeout: TimeInterval
    /// Availability is probed by starting the helper with `--check`, once at a time, refreshed each minute.
    private let probe: AvailabilityProbe

    public init(python: String, modelDirectory: String?, timeout: TimeInterval, script: String? = nil) {
        self.python = URL(fileURLWithPath: python).standardizedFileURL.path
        self.script = script ?? TranscriptionResources.whisperScript.path
        // Absolute, like the Python path: the helper runs in each job's own folder, where a relative
        // WHISPER_MODEL_DIR would point nowhere.
        self.modelDirectory = modelDirectory.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        self.timeout = timeout
        let (python, script, modelDirectory) = (self.python, self.script, self.modelDirectory)
        probe = AvailabilityProbe(maxAge: 60) {
            await Self.canRun(python: python, script: script, modelDirectory: modelDirectory)
        }
    }

    static var environment: [String: String] {
        var env = [
            "HF_HUB_OFFLINE": "1", "HF_HUB_DISABLE_TELEMETRY": "1", "PATH": "/usr/local/bin:/usr/bin:/bin",
            "LC_ALL": "C.UTF-8", "PYTHONDONTWRITEBYTECODE": "1",
        ]
        if let home = ProcessInfo.processInfo.environment["HOME"] { env["HOME"] = home }
        return env
    }

    static func modelArguments(_ modelDirectory: String?) -> [String] { modelDirectory.map { ["--model-dir", $0] } ?? [] }

    public func isAvailable() async -> Bool { await probe.isAvailable() }

    private static func canRun(python: String, script: String, modelDirectory: String?) async -> Bool {
        guard FileManager.default.isExecutableFile(atPath: python), FileManager.default.fileExists(atPath: script)
        else { return false }
        let result = try? await ChildProcess.run(
            python, [script, "--check"] + modelArguments(modelDirectory), environment: environment,
            workDirectory: FileManager.default.temporaryDirectory, timeout: 60)
        return result?.succeeded == true
    }

    struct Output: Decodable {
        var text: String
        var segments: [TranscriptSegment]
        var language: String?
        var duration: Double?
        var model: String?
    }

    public func transcribe(wav: URL, hints: DecoderHints, workDirectory: URL) async throws -> Transcript {
        var arguments = [script, "--wav", wav.path, "--prompt", hints.prompt, "--hotwords", hints.hotwords]
        if let slot = hints.doseSlot, !slot.frequencies.isEmpty {
            arguments += ["--frequencies", slot.frequencies.joined(separator: "|"), "--dose-units", slot.unitPattern]
        }
        let result = try await ChildProcess.run(
            python, arguments + Self.modelArguments(modelDirectory), environment: Self.environment,
            workDirectory: workDirectory, timeout: timeout)
        if result.timedOut { throw TranscriptionFailure("Whisper timed out after \(Int(timeout)) s") }
        guard result.succeeded else {
            throw TranscriptionFailure("Whisper failed (exit \(result.status)): \(result.stderrTail())")
        }
        guard let output = try? JSONDecoder().decode(Output.self, from: result.stdout) else {
            throw TranscriptionFailure("Whisper returned no readable result")
        }
        return Transcript(
            text: output.text, segments: output.segments.sorted { $0.start < $1.start },
            language: output.language ?? "en", durationSeconds: output.duration ?? WAVDuration.seconds(of: wav),
            engine: name, model: output.model ?? "whisper")
    }
}
