import AppCore
import Foundation

/// The body of `POST /visit-transcripts/audio/upload/initiate`, validated, in the contract's field order.
struct InitiateRecordingRequest: Sendable {
    let petID: UUID
    let filename: String
    let contentType: AudioContentType
    let estimatedDuration: Double?
    let appointmentID: UUID?
    let replaceExisting: Bool
    let practiceID: UUID?
    /// The vet confirmed that the owner agreed to being recorded (optional, additive).
    let ownerConsentConfirmed: Bool?

    init(_ fields: FieldReader) throws {
        petID = try fields.requiredUUID("pet_id", kind: .pet)
        filename = RecordingFilename.sanitized(try fields.requiredString("filename", max: 255))
        switch try fields.optionalString("content_type", trim: false, min: 0, max: 100_000, nullable: false) {
        case .value(let value):
            guard let type = AudioContentType.named(value) else { throw APIError.badRequest(AudioContentType.invalid(value)) }
            contentType = type
        default:
            contentType = .default
        }
        estimatedDuration = try fields.optionalPositiveNumber("estimated_duration_seconds", max: 14_400).valueIfPresent
        appointmentID = try fields.optionalUUID("appointment_id", kind: .appointment).valueIfPresent
        replaceExisting = try fields.optionalBool("replace_existing") ?? false
        practiceID = try fields.optionalUUID("practice_id", kind: .practice).valueIfPresent
        ownerConsentConfirmed = try fields.optionalBool("owner_consent_confirmed")
    }
}

/// The body of `POST /visit-transcripts/audio/upload/complete/{visit_id}`: what the client knows about its file.
struct CompleteRecordingRequest: Sendable {
    let details: CompletionDetails

    init(_ fields: FieldReader) throws {
        let clientSize = try fields.optionalInteger("file_size_bytes", range: 1...104_857_600, nullable: true)
            .valueIfPresent
        let duration = try fields.optionalPositiveNumber("duration_seconds", max: 14_400).valueIfPresent
        let device = try fields.optionalBoundedObject("device_metadata", maxBytes: 16_384, nullable: true)
        details = CompletionDetails(clientFileSize: clientSize, durationSeconds: duration, deviceMetadata: device)
    }
}
