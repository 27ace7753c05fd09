import Foundation

/// A failed transcription attempt, with a message fit for `metadata.transcription_error` (no secrets, no paths
/// outside the job's temporary folder).
public struct TranscriptionFailure: Error, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = String(message.prefix(500)) }
    public var description: String { message }
}

/// Converts a stored recording to the 16 kHz mono WAV every engine reads (contract §5.1, audio preparation):
/// `ffmpeg -nostdin -protocol_whitelist file,pipe -f <demuxer> -i <input> -vn -ac 1 -ar 16000 -c:a pcm_s16le -f wav`,
/// the demuxer chosen from the stored content type, never guessed from the bytes. ffmpeg runs under a shell
/// wrapper that sets a 1 GiB address-space limit (`ulimit -v`) and with a wall-clock timeout.
public struct AudioPreparation: Sendable {
    /// Demuxers by stored content type (contract §3.1).
    public static let demuxers: [String: String] = [
        "audio/m4a": "mov", "audio/mp4": "mov", "audio/x-m4a": "mov", "audio/aac": "aac", "audio/mpeg": "mp3",
        "audio/wav": "wav", "audio/x-wav": "wav", "audio/webm": "matroska", "audio/ogg": "ogg", "audio/flac": "flac",
    ]

    public var ffmpeg: String
    public var timeout: TimeInterval
    public var memoryLimitKiB: Int

    public init(ffmpeg: String = "ffmpeg", timeout: TimeInterval = 300, memoryLimitKiB: Int = 1_048_576) {
        self.ffmpeg = ffmpeg
        self.timeout = timeout
        self.memoryLimitKiB = memoryLimitKiB
    }

    public var isAvailable: Bool { ChildProcess.which(ffmpeg) != nil }

    /// Writes `audio.wav` next to `input` (both inside the job's private folder) and returns it.
    public func convert(_ input: URL, contentType: String) async throws -> URL {
        guard let executable = ChildProcess.which(ffmpeg) else { throw TranscriptionFailure("ffmpeg is not installed") }
        let demuxer = Self.demuxers[contentType] ?? "mov"
        let folder = input.deletingLastPathComponent()
        let output = folder.appendingPathComponent("audio.wav")
        // `exec` keeps the pid, so the timeout's kill reaches ffmpeg itself.
        let script = "ulimit -v \(memoryLimitKiB) && exec \"$0\" \"$@\""
        let arguments = [
            "-c", script, executable, "-nostdin", "-hide_banner", "-loglevel", "error",
            "-protocol_whitelist", "file,pipe", "-f", demuxer, "-i", input.lastPathComponent,
            "-vn", "-ac", "1", "-ar", "16000", "-c:a", "pcm_s16le", "-f", "wav", "-y", output.lastPathComponent,
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
