import Foundation

/// The state of a visit (seed 002): `new` (waiting for its recording), `processing` (recorded, being
/// transcribed), `processed` (transcript ready) or `failed`.
public enum VisitState: String, Codable, Sendable, Hashable, CaseIterable {
    case new
    case processing
    case processed
    case failed

    /// True once nothing more will happen without a person acting (`processed` or `failed`).
    public var isFinal: Bool { self == .processed || self == .failed }
}

/// One visit of one pet: its recording and transcript (seeds 002/003, plus `appointment_id` and `practice_id`).
///
/// `visit_date` is unix seconds on the wire; it is decoded as such whatever the decoder's date strategy, and encoded
/// back as an integer.
public struct VisitTranscript: Codable, Sendable, Hashable, Identifiable {
    /// The visit id (also called `visit_id`).
    public let uuid: String
    public let petId: String
    public let appointmentId: String?
    public let practiceId: String?
    public let visitDate: Date
    /// `""` until transcribed.
    public let fullText: String
    /// The stored object's URL; not directly playable (use ``HelpPetClient/audioPlaybackURL(visitId:)``).
    public let audioTranscriptUrl: String?
    /// Server-managed keys (`s3_key`, `file_size_bytes`, …) plus client keys, exactly as sent.
    public let metadata: [String: JSONValue]
    public let summary: String?
    public let state: VisitState
    public let createdAt: Date
    public let updatedAt: Date
    public let createdBy: String?

    public var id: String { uuid }

    public init(
        uuid: String, petId: String, appointmentId: String?, practiceId: String?, visitDate: Date, fullText: String,
        audioTranscriptUrl: String?, metadata: [String: JSONValue], summary: String?, state: VisitState,
        createdAt: Date, updatedAt: Date, createdBy: String?
    ) {
        self.uuid = uuid
        self.petId = petId
        self.appointmentId = appointmentId
        self.practiceId = practiceId
        self.visitDate = visitDate
        self.fullText = fullText
        self.audioTranscriptUrl = audioTranscriptUrl
        self.metadata = metadata
        self.summary = summary
        self.state = state
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.createdBy = createdBy
    }

    enum CodingKeys: String, CodingKey {
        case uuid, metadata, summary, state
        case petId = "pet_id"
        case appointmentId = "appointment_id"
        case practiceId = "practice_id"
        case visitDate = "visit_date"
        case fullText = "full_text"
        case audioTranscriptUrl = "audio_transcript_url"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case createdBy = "created_by"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        uuid = try c.decode(String.self, forKey: .uuid)
        petId = try c.decode(String.self, forKey: .petId)
        appointmentId = try c.decodeIfPresent(String.self, forKey: .appointmentId)
        practiceId = try c.decodeIfPresent(String.self, forKey: .practiceId)
        if let seconds = try? c.decode(Double.self, forKey: .visitDate) {
            visitDate = Date(timeIntervalSince1970: seconds)
        } else {
            visitDate = try c.decode(Date.self, forKey: .visitDate)
        }
        fullText = try c.decodeIfPresent(String.self, forKey: .fullText) ?? ""
        audioTranscriptUrl = try c.decodeIfPresent(String.self, forKey: .audioTranscriptUrl)
        metadata = try c.decodeIfPresent([String: JSONValue].self, forKey: .metadata) ?? [:]
        summary = try c.decodeIfPresent(String.self, forKey: .summary)
        state = try c.decode(VisitState.self, forKey: .state)
        createdAt = try c.decode(Date.self, forKey: .createdAt)
        updatedAt = try c.decode(Date.self, forKey: .updatedAt)
        createdBy = try c.decodeIfPresent(String.self, forKey: .createdBy)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(uuid, forKey: .uuid)
        try c.encode(petId, forKey: .petId)
        try c.encode(appointmentId, forKey: .appointmentId)
        try c.encode(practiceId, forKey: .practiceId)
        try c.encode(Int64(visitDate.timeIntervalSince1970.rounded(.down)), forKey: .visitDate)
        try c.encode(fullText, forKey: .fullText)
        try c.encode(audioTranscriptUrl, forKey: .audioTranscriptUrl)
        try c.encode(metadata, forKey: .metadata)
        try c.encode(summary, forKey: .summary)
        try c.encode(state, forKey: .state)
        try c.encode(createdAt, forKey: .createdAt)
        try c.encode(updatedAt, forKey: .updatedAt)
        try c.encode(createdBy, forKey: .createdBy)
    }

    /// The storage key of the current recording (`metadata.s3_key`), if any.
    public var storageKey: String? { metadata["s3_key"]?.stringValue }
    /// The size of the stored recording as measured by storage (`metadata.file_size_bytes`), once completed.
    public var fileSizeBytes: Int? { metadata["file_size_bytes"]?.intValue }
}
