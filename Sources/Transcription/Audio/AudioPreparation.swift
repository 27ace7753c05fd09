import Foundation

/// A failed transcription attempt, with a message fit for `metadata.transcription_error` (no secrets, no paths
/// outside the job's temporary folder).
public struct TranscriptionFailure: Error, Sendable, CustomStringConvertible {
    public var message: String
    /// Another attempt cannot succeed (e.g. a recording over the duration cap): the visit fails at once.
    public var isFinal: Bool
    public init(_ message: String, isFinal: Bool = false) {
        self.message = String(message.prefix(500))
        self.isFinal = isFinal
    }
    public var description: String { message }
}

/// Converts a stored recording to the 16 kHz mono WAV every engine reads (contract §5.1, audio preparation):
/// `ffmpeg -nostdin -protocol_whitelist file,pipe -f <demuxer> -i <input> -vn -ac 1 -ar 16000 -c:a pcm_s16le -f wav`,
/// the demuxer chosen from the stored content type, never guessed from the bytes. ffmpeg runs under a shell
/// wrapper that sets a 1 GiB address-space limit (`ulimit -v`) and with a wall-clock timeout.
///
/// Duration cap (`TRANSCRIPTION_MAX_AUDIO_SECONDS`, docs/transport-safety.md): a few MB of compressed silence decode to
/// hours of PCM, so `ffprobe` reads the container's duration first and a recording over `maxSeconds` is refused
/// before it is decoded. Headers can lie, so ffmpeg itself stops one second past the cap (`-t`) and at the byte size
/// of that much PCM (`-fs`); an output that reaches past the cap is refused as well.
public struct AudioPreparation: Sendable {
    /// Demuxers by stored content type (contract §3.1).
    public static let demuxers: [String: String] = [
        "audio/m4a": "mov", "audio/mp4": "mov", "audio/x-m4a": "mov", "audio/aac": "aac", "audio/mpeg": "mp3",
        "audio/wav": "wav", "audio/x-wav": "wav", "audio/webm": "matroska", "audio/ogg": "ogg", "audio/flac": "flac",
    ]

    /// 16 kHz, mono, 16-bit PCM.
    static let wavBytesPerSecond = 32_000
    static let wavHeaderBytes = 44

    public var ffmpeg: String
    public var ffprobe: String
    public var timeout: TimeInterval
    public var memoryLimitKiB: Int
    /// The longest recording that is transcribed.
    public var maxSeconds: Int

    public init(
        ffmpeg: String = "ffmpeg", ffprobe: String = "ffprobe", timeout: TimeInterval = 300,
        memoryLimitKiB: Int = 1_048_576, maxSeconds: Int = 7200
    ) {
        self.ffmpeg = ffmpeg
        self.ffprobe = ffprobe
        self.timeout = timeout
        self.memoryLimitKiB = memoryLimitKiB
        self.maxSeconds = maxSeconds
    }

    /// ffmpeg's own bounds: one second past the cap, so that reaching it proves the recording is too long.
    var decodeLimitSeconds: Int { maxSeconds + 1 }
    var decodeLimitBytes: Int { Self.wavHeaderBytes + decodeLimitSeconds * Self.wavBytesPerSecond + 65_536 }

    func tooLong(_ seconds: Double) -> TranscriptionFailure {
        TranscriptionFailure(
            "The recording is longer than the maximum of \(Self.clock(Double(maxSeconds))) "
                + "(about \(Self.clock(seconds))); it is not transcribed",
            isFinal: true)
    }

    /// `2:00:00` style.
    static func clock(_ seconds: Double) -> String {
        let total = Int(seconds.rounded(.down))
        return String(format: "%d:%02d:%02d", total / 3600, total / 60 % 60, total % 60)
    }

    public var isAvailable: Bool { ChildProcess.which(ffmpeg) != nil && ChildProcess.which(ffprobe) != nil }

    /// The duration the container declares, or nil when it declares none (then only ffmpeg's caps apply).
    func probeDuration(_ input: URL, demuxer: String) async throws -> Double? {
        guard let executable = ChildProcess.which(ffprobe) else { throw TranscriptionFailure("ffprobe is not installed") }
        let result = try await ChildProcess.run(
            executable,
            [
                "-v", "error", "-protocol_whitelist", "file,pipe", "-f", demuxer,
                "-show_entries", "format=duration", "-of", "default=noprint_wrappers=1:nokey=1", input.lastPathComponent,
            ],
            environment: ["PATH": "/usr/bin:/bin", "LC_ALL": "C"], workDirectory: input.deletingLastPathComponent(),
            timeout: 60)
        if result.timedOut { throw TranscriptionFailure("Audio probe timed out") }
        // A file ffprobe cannot read is reported by the conversion, with ffmpeg's own message.
        guard result.succeeded else { return nil }
        let text = String(decoding: result.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard let seconds = Double(text), seconds.isFinite, seconds >= 0 else { return nil }
        return seconds
    }

    /// Writes `audio.wav` next to `input` (both inside the job's private folder) and returns it.
    public func convert(_ input: URL, contentType: String) async throws -> URL {
        guard let executable = ChildProcess.which(ffmpeg) else { throw TranscriptionFailure("ffmpeg is not installed") }
        let demuxer = Self.demuxers[contentType] ?? "mov"
        if let declared = try await probeDuration(input, demuxer: demuxer), declared > Double(maxSeconds) {
            throw tooLong(declared)
        }
        let folder = input.deletingLastPathComponent()
        let output = folder.appendingPathComponent("audio.wav")
        // `exec` keeps the pid, so the timeout's kill reaches ffmpeg itself.
        let script = "ulimit -v \(memoryLimitKiB) && exec \"$0\" \"$@\""
        let arguments = [
            "-c", script, executable, "-nostdin", "-hide_banner", "-loglevel", "error",
            "-protocol_whitelist", "file,pipe", "-f", demuxer, "-i", input.lastPathComponent,
            "-vn", "-ac", "1", "-ar", "16000", "-c:a", "pcm_s16le",
            "-t", String(decodeLimitSeconds), "-fs", String(decodeLimitBytes),
            "-f", "wav", "-y", output.lastPathComponent,
        ]
        let result = try await ChildProcess.run(
            "/bin/sh", arguments, environment: ["PATH": "/usr/bin:/bin", "LC_ALL": "C"], workDirectory: folder,
            timeout: timeout)
        if result.timedOut { throw TranscriptionFailure("Audio conversion timed out after \(Int(timeout)) s") }
        guard result.succeeded else {
            throw TranscriptionFailure("Audio could not be decoded as \(contentType) (ffmpeg exit \(result.status)): "
                + result.stderrTail())
        }
        let size = (try? FileManager.default.attributesOfItem(atPath: output.path)[.size] as? Int) ?? 0
        guard size > 44 + 3200 else { throw TranscriptionFailure("Audio is empty or shorter than 0.1 s") }
        // The container understated its length (or declared none): the decoded audio itself is over the cap.
        let decoded = Double(size - Self.wavHeaderBytes) / Double(Self.wavBytesPerSecond)
        if decoded > Double(maxSeconds) {
            try? FileManager.default.removeItem(at: output)
            throw tooLong(decoded)
        }
        return output
    }
}

/// A private temporary folder (0700) for one job, removed by `remove()`.
public struct JobFolder: Sendable {
    public let url: URL

    public init(parent: URL) throws {
        try FileManager.default.createDirectory(
            at: parent, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        url = parent.appendingPathComponent("job-\(UUID().uuidString.lowercased())", isDirectory: true)
        try FileManager.default.createDirectory(
            at: url, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
    }

    public func remove() { try? FileManager.default.removeItem(at: url) }
}
