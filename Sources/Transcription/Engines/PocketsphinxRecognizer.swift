import Foundation

/// CMU pocketsphinx from the OS packages (Debian `pocketsphinx` + `pocketsphinx-en-us`):
/// `pocketsphinx_continuous -infile audio.wav -time yes`, the fallback that needs no Python.
public struct PocketsphinxRecognizer: SpeechRecognizer {
    public let name = "pocketsphinx"
    public static let model = "cmusphinx-en-us"
    let executable: String
    let timeout: TimeInterval

    public init(executable: String = "pocketsphinx_continuous", timeout: TimeInterval) {
        self.executable = executable
        self.timeout = timeout
    }

    public func isAvailable() async -> Bool {
        ChildProcess.which(executable) != nil
            && FileManager.default.fileExists(atPath: "/usr/share/pocketsphinx/model/en-us/en-us/mdef")
    }

    public func transcribe(wav: URL, hints: DecoderHints, workDirectory: URL) async throws -> Transcript {
        guard let path = ChildProcess.which(executable) else { throw TranscriptionFailure("pocketsphinx is not installed") }
        let result = try await ChildProcess.run(
            path, ["-infile", wav.path, "-time", "yes", "-logfn", "/dev/null"],
            environment: ["PATH": "/usr/bin:/bin", "LC_ALL": "C"], workDirectory: workDirectory, timeout: timeout)
        if result.timedOut { throw TranscriptionFailure("pocketsphinx timed out after \(Int(timeout)) s") }
        guard result.succeeded else {
            throw TranscriptionFailure("pocketsphinx failed (exit \(result.status)): \(result.stderrTail())")
        }
        let segments = Self.parse(String(decoding: result.stdout, as: UTF8.self))
        return Transcript(
            text: segments.map(\.text).joined(separator: " "), segments: segments, language: "en",
            durationSeconds: WAVDuration.seconds(of: wav), engine: name, model: Self.model)
    }

    /// `-time yes` prints, per utterance, the hypothesis line and then one `word start end confidence` line per
    /// word between `<s>` and `</s>`. Each utterance becomes a segment of its real words.
    static func parse(_ output: String) -> [TranscriptSegment] {
        var segments: [TranscriptSegment] = []
        var words: [(String, Double, Double)] = []
        func flush() {
            if let first = words.first, let last = words.last {
                segments.append(.init(start: first.1, end: last.2, text: words.map(\.0).joined(separator: " ")))
            }
            words = []
        }
        for line in output.split(whereSeparator: \.isNewline) {
            let parts = line.split(separator: " ")
            guard parts.count == 4, let start = Double(parts[1]), let end = Double(parts[2]), Double(parts[3]) != nil
            else { continue }
            var word = String(parts[0])
            if word == "<s>" { flush(); continue }
            if word == "</s>" { flush(); continue }
            if word.hasPrefix("<") || word.hasPrefix("[") || word.hasPrefix("++") { continue }
            if let paren = word.firstIndex(of: "(") { word = String(word[..<paren]) }
            words.append((word, start, end))
        }
        flush()
        return segments
    }
}
