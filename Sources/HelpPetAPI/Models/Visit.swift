import AppCore
import Fluent
import Foundation

/// One pet's visit: its transcript and, for recordings, its one recording.
package final class Visit: Model, @unchecked Sendable {
    package static let schema = "visits"

    @ID(key: .id) package var id: UUID?
    @Field(key: "pet_id") package var petID: UUID
    @Field(key: "practice_id") package var practiceID: UUID
    @OptionalField(key: "appointment_id") package var appointmentID: UUID?
    @Field(key: "source") package var source: String
    @Field(key: "state") package var stateValue: String
    @Field(key: "visit_date") package var visitDate: Date
    @OptionalField(key: "recording_day") package var recordingDay: String?
    @Field(key: "full_text") package var fullText: String
    @OptionalField(key: "summary") package var summary: String?
    @OptionalField(key: "audio_transcript_url") package var audioTranscriptURL: String?
    @OptionalField(key: "storage_key") package var storageKey: String?
    @OptionalField(key: "attempt") package var attempt: Int?
    @OptionalField(key: "upload_method") package var uploadMethod: String?
    @OptionalField(key: "upload_url_issued_at") package var uploadURLIssuedAt: Date?
    @OptionalField(key: "reserved_at") package var reservedAt: Date?
    @OptionalField(key: "reconcile_after") package var reconcileAfter: Date?
    @Field(key: "metadata") package var metadata: [String: JSONValue]
    @Field(key: "created_by") package var createdBy: UUID
    @Field(key: "created_at") package var createdAt: Date
    @Field(key: "updated_at") package var updatedAt: Date

    package init() {}

    var state: VisitState { VisitState(rawValue: stateValue) ?? .new }

    /// A reservation that has never held a completed recording (hidden from lists unless asked for).
    var isPending: Bool {
        source == VisitSource.recording.rawValue && state == .new && metadata["previous_recordings"] == nil
    }
}
