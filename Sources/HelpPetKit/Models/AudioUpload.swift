import Foundation

/// The body of `POST /api/v1/visit-transcripts/audio/upload/initiate`: one recording for **one pet** (seed 002, with
/// seed 001's `appointmentId`).
public struct AudioUploadRequest: Codable, Sendable, Hashable {
    /// The one pet this recording belongs to.
    public var petId: String
    /// A descriptive file name, 1–255 characters (e.g. `appointment_840e37f2_pet_bella_20250115_091204.m4a`).
    public var filename: String
    /// One of ``AudioContentType/allowed`` (default `audio/m4a`).
    public var contentType: String
    public var estimatedDurationSeconds: Double?
    /// The appointment the pet is seen in (seeds 000/001 clients always send it).
    public var appointmentId: String?
    /// Replace an already completed recording of this slot (keeps the old one in `previous_recordings`).
    public var replaceExisting: Bool?
    /// Only needed by ADMIN callers without an appointment.
    public var practiceId: String?

    public init(
        petId: String, filename: String, contentType: String = "audio/m4a", estimatedDurationSeconds: Double? = nil,
        appointmentId: String? = nil, replaceExisting: Bool? = nil, practiceId: String? = nil
    ) {
        self.petId = petId
        self.filename = filename
        self.contentType = contentType
        self.estimatedDurationSeconds = estimatedDurationSeconds
        self.appointmentId = appointmentId
        self.replaceExisting = replaceExisting
        self.practiceId = practiceId
    }

    enum CodingKeys: String, CodingKey {
        case filename
        case petId = "pet_id"
        case contentType = "content_type"
        case estimatedDurationSeconds = "estimated_duration_seconds"
        case appointmentId = "appointment_id"
        case replaceExisting = "replace_existing"
        case practiceId = "practice_id"
    }

    /// Checks the request before it is sent, with the server's own messages (contract §4.10): ids are UUIDs (the
    /// appointment id, when given, too: seed 001 requires it for appointment recordings), the file name is 1–255
    /// characters, the content type is an allowed audio type, the estimated duration is in (0, 14400].
    /// - Throws: ``HelpPetError/invalid(detail:)``.
    public func validate() throws(HelpPetError) {
        guard UUID(uuidString: petId) != nil else { throw .invalid(detail: "Invalid pet ID format") }
        if let appointmentId, UUID(uuidString: appointmentId) == nil {
            throw .invalid(detail: "Invalid appointment ID format")
        }
        if let practiceId, UUID(uuidString: practiceId) == nil { throw .invalid(detail: "Invalid practice ID format") }
        let name = filename.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !name.isEmpty else { throw .invalid(detail: "filename must not be empty") }
        guard name.unicodeScalars.count <= 255 else { throw .invalid(detail: "filename must be at most 255 characters") }
        guard AudioContentType.allowed.contains(contentType) else {
            throw .invalid(
                detail: "Invalid content_type: '\(contentType)'. Allowed: \(AudioContentType.allowed.joined(separator: ", "))")
        }
        if let duration = estimatedDurationSeconds, !(duration > 0 && duration <= 14_400) {
            throw .invalid(detail: "estimated_duration_seconds must be greater than 0 and at most 14400")
        }
    }
}

/// The answer to initiate: where and how to upload this pet's file (seed 002 `AudioUploadResponse`).
public struct AudioUploadResponse: Codable, Sendable, Hashable {
    /// The pet's visit for this slot.
    public let visitId: String
    /// Where to POST the multipart form; opaque.
    public let uploadUrl: String
    /// Form fields to send verbatim before the `file` part (`key`, `Content-Type`, `policy`, `x-amz-*`); opaque.
    public let uploadFields: [String: String]
    public let s3Key: String
    public let bucket: String
    /// Lifetime of the upload form in seconds (3600).
    public let expiresIn: Int

    public init(
        visitId: String, uploadUrl: String, uploadFields: [String: String], s3Key: String, bucket: String, expiresIn: Int
    ) {
        self.visitId = visitId
        self.uploadUrl = uploadUrl
        self.uploadFields = uploadFields
        self.s3Key = s3Key
        self.bucket = bucket
        self.expiresIn = expiresIn
    }

    enum CodingKeys: String, CodingKey {
        case bucket
        case visitId = "visit_id"
        case uploadUrl = "upload_url"
        case uploadFields = "upload_fields"
        case s3Key = "s3_key"
        case expiresIn = "expires_in"
    }

    /// Checks the answer as seed 002 does: a UUID visit id, an absolute http(s) upload URL, form fields present,
    /// and `0 < expires_in ≤ 3600`.
    /// - Throws: ``HelpPetError/decoding(_:)``.
    public func validate() throws(HelpPetError) {
        guard UUID(uuidString: visitId) != nil else { throw .decoding("visit_id is not a UUID: \(visitId)") }
        guard let url = URL(string: uploadUrl), let scheme = url.scheme?.lowercased(),
              scheme == "http" || scheme == "https", url.host != nil
        else { throw .decoding("upload_url is not an absolute http(s) URL: \(uploadUrl)") }
        guard !uploadFields.isEmpty else { throw .decoding("upload_fields is empty") }
        guard expiresIn > 0 && expiresIn <= 3600 else { throw .decoding("expires_in out of range: \(expiresIn)") }
    }
}

/// The body of `POST /api/v1/visit-transcripts/audio/upload/complete/{visit_id}` (seed 002); every field optional.
public struct AudioUploadCompleteRequest: Codable, Sendable, Hashable {
    /// The size the client recorded (the server stores the size measured by storage).
    public var fileSizeBytes: Int?
    public var durationSeconds: Double?
    /// Free-form device information (keys kept exactly as given).
    public var deviceMetadata: [String: JSONValue]?

    public init(fileSizeBytes: Int? = nil, durationSeconds: Double? = nil, deviceMetadata: [String: JSONValue]? = nil) {
        self.fileSizeBytes = fileSizeBytes
        self.durationSeconds = durationSeconds
        self.deviceMetadata = deviceMetadata
    }

    enum CodingKeys: String, CodingKey {
        case fileSizeBytes = "file_size_bytes"
        case durationSeconds = "duration_seconds"
        case deviceMetadata = "device_metadata"
    }
}

/// A time-limited URL to play or download a visit's recording (seed 002).
public struct AudioPlaybackResponse: Codable, Sendable, Hashable {
    /// Presigned GET URL (supports HTTP Range).
    public let presignedUrl: String
    /// Seconds (900).
    public let expiresIn: Int
    public let visitId: String
    public let filename: String

    enum CodingKeys: String, CodingKey {
        case filename
        case presignedUrl = "presigned_url"
        case expiresIn = "expires_in"
        case visitId = "visit_id"
    }
}

/// The answer to the legacy multipart upload `POST /api/v1/upload/audio` (seeds 000/003).
public struct LegacyAudioUploadResponse: Codable, Sendable, Hashable {
    public let message: String
    public let fileUrl: String
    public let fileKey: String
    public let visitId: String?
    public let petId: String?
    public let appointmentId: String?

    enum CodingKeys: String, CodingKey {
        case message
        case fileUrl = "file_url"
        case fileKey = "file_key"
        case visitId = "visit_id"
        case petId = "pet_id"
        case appointmentId = "appointment_id"
    }
}

/// The body of `POST /api/v1/visit-transcripts` (a typed transcript without audio, seed 003).
public struct VisitTranscriptCreateRequest: Codable, Sendable, Hashable {
    public var petId: String
    /// Sent as unix seconds.
    public var visitDate: Date
    public var fullText: String
    public var summary: String?
    public var audioTranscriptUrl: String?
    public var metadata: [String: JSONValue]?
    public var practiceId: String?

    public init(
        petId: String, visitDate: Date, fullText: String, summary: String? = nil, audioTranscriptUrl: String? = nil,
        metadata: [String: JSONValue]? = nil, practiceId: String? = nil
    ) {
        self.petId = petId
        self.visitDate = visitDate
        self.fullText = fullText
        self.summary = summary
        self.audioTranscriptUrl = audioTranscriptUrl
        self.metadata = metadata
        self.practiceId = practiceId
    }

    enum CodingKeys: String, CodingKey {
        case summary, metadata
        case petId = "pet_id"
        case visitDate = "visit_date"
        case fullText = "full_text"
        case audioTranscriptUrl = "audio_transcript_url"
        case practiceId = "practice_id"
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(petId, forKey: .petId)
        try c.encode(Int64(visitDate.timeIntervalSince1970.rounded(.down)), forKey: .visitDate)
        try c.encode(fullText, forKey: .fullText)
        try c.encodeIfPresent(summary, forKey: .summary)
        try c.encodeIfPresent(audioTranscriptUrl, forKey: .audioTranscriptUrl)
        try c.encodeIfPresent(metadata, forKey: .metadata)
        try c.encodeIfPresent(practiceId, forKey: .practiceId)
    }
}

/// The audio content types the server accepts (contract §3.1), and the mapping from file extensions.
public enum AudioContentType {
    /// Every accepted `content_type`, in the server's order.
    public static let allowed = [
        "audio/m4a", "audio/mp4", "audio/x-m4a", "audio/aac", "audio/mpeg", "audio/wav", "audio/x-wav", "audio/webm",
        "audio/ogg", "audio/flac",
    ]

    /// The content type for a file name's extension (`m4a` → `audio/m4a`, `mp3` → `audio/mpeg`, …), or nil.
    public static func forFile(_ url: URL) -> String? {
        switch url.pathExtension.lowercased() {
        case "m4a": return "audio/m4a"
        case "mp4": return "audio/mp4"
        case "aac": return "audio/aac"
        case "mp3": return "audio/mpeg"
        case "wav": return "audio/wav"
        case "webm": return "audio/webm"
        case "ogg", "oga": return "audio/ogg"
        case "flac": return "audio/flac"
        default: return nil
        }
    }

    /// The usual file extension for a content type (`audio/mpeg` → `mp3`).
    public static func fileExtension(for contentType: String) -> String {
        switch contentType {
        case "audio/aac": return "aac"
        case "audio/mpeg": return "mp3"
        case "audio/wav", "audio/x-wav": return "wav"
        case "audio/webm": return "webm"
        case "audio/ogg": return "ogg"
        case "audio/flac": return "flac"
        default: return "m4a"
        }
    }
}
