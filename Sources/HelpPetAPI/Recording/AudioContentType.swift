/// The accepted audio types of contract §3.1: request value → key extension, playback type, ffmpeg demuxer.
struct AudioContentType: Sendable, Equatable {
    let value: String
    let fileExtension: String
    let playbackType: String
    let demuxer: String

    static let all: [AudioContentType] = [
        .init(value: "audio/m4a", fileExtension: "m4a", playbackType: "audio/mp4", demuxer: "mov"),
        .init(value: "audio/mp4", fileExtension: "m4a", playbackType: "audio/mp4", demuxer: "mov"),
        .init(value: "audio/x-m4a", fileExtension: "m4a", playbackType: "audio/mp4", demuxer: "mov"),
        .init(value: "audio/aac", fileExtension: "aac", playbackType: "audio/aac", demuxer: "aac"),
        .init(value: "audio/mpeg", fileExtension: "mp3", playbackType: "audio/mpeg", demuxer: "mp3"),
        .init(value: "audio/wav", fileExtension: "wav", playbackType: "audio/wav", demuxer: "wav"),
        .init(value: "audio/x-wav", fileExtension: "wav", playbackType: "audio/wav", demuxer: "wav"),
        .init(value: "audio/webm", fileExtension: "webm", playbackType: "audio/webm", demuxer: "matroska"),
        .init(value: "audio/ogg", fileExtension: "ogg", playbackType: "audio/ogg", demuxer: "ogg"),
        .init(value: "audio/flac", fileExtension: "flac", playbackType: "audio/flac", demuxer: "flac"),
    ]

    static let `default` = all[0]

    /// Exact, case-sensitive match (no parameters).
    static func named(_ value: String) -> AudioContentType? { all.first { $0.value == value } }

    static var invalidMessagePrefix: String { "Allowed: " + all.map(\.value).joined(separator: ", ") }

    static func invalid(_ value: String) -> String { "Invalid content_type: '\(value)'. \(invalidMessagePrefix)" }

    /// The legacy upload's inference for parts sent without a type or as `application/octet-stream` (§4.11).
    static func inferred(fromFilename filename: String?) -> String? {
        guard let filename, let dot = filename.lastIndex(of: ".") else { return nil }
        switch filename[filename.index(after: dot)...].lowercased() {
        case "m4a": return "audio/m4a"
        case "mp4": return "audio/mp4"
        case "aac": return "audio/aac"
        case "mp3": return "audio/mpeg"
        case "wav": return "audio/wav"
        case "webm": return "audio/webm"
        case "ogg": return "audio/ogg"
        case "flac": return "audio/flac"
        default: return nil
        }
    }

    /// The content type recorded for a visit, falling back to the default for values from older rows.
    static func stored(_ value: String?) -> AudioContentType { value.flatMap(named) ?? .default }
}
