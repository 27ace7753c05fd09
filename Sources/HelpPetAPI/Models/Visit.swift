import AppCore
import Fluent
import Foundation

/// One pet's visit: its transcript and, for recordings, its one recording.
final class Visit: Model, @unchecked Sendable {
    static let schema = "visits"

    @ID(key: .id) var id: UUID?
    @Field(key: "pet_id") var petID: UUID
    @Field(key: "practice_id") var practiceID: UUID
    @OptionalField(key: "appointment_id") var appointmentID: UUID?
    @Field(key: "source") var source: String
    @Field(key: "state") var stateValue: String
    @Field(key: "visit_date") var visitDate: Date
    @OptionalField(key: "recording_day") var recordingDay: String?
    @Field(key: "full_text") var fullText: String
    @OptionalField(key: "summary") var summary: String?
    @OptionalField(key: "audio_transcript_url") var audioTranscriptURL: String?
    @OptionalField(key: "storage_key") var storageKey: String?
    @OptionalField(key: "attempt") var attempt: Int?
    @OptionalField(key: "upload_method") var uploadMethod: String?
    @OptionalField(key: "upload_url_issued_at") var uploadURLIssuedAt: Date?
    @OptionalField(key: "reserved_at") var reservedAt: Date?
    @OptionalField(key: "reconcile_after") var reconcileAfter: Date?
    @Field(key: "metadata") var metadata: [String: JSONValue]
    @Field(key: "created_by") var createdBy: UUID
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "updated_at") var updatedAt: Date

    init() {}

    var state: VisitState { VisitState(rawValue: stateValue) ?? .new }

    /// A reservation that has never held a completed recording (hidden from lists unless asked for).
    var isPending: Bool {
        source == VisitSource.recording.rawValue && state == .new && metadata["previous_recordings"] == nil
    }
}
