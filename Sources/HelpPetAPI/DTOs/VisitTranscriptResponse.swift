import AppCore
import Foundation

struct VisitTranscriptResponse: Encodable, Sendable {
    let uuid: String
    let petID: String
    @NullEncodable var appointmentID: String?
    let practiceID: String
    /// Unix seconds: the only integer timestamp of the API.
    let visitDate: Int64
    let fullText: String
    @NullEncodable var audioTranscriptURL: String?
    let metadata: [String: JSONValue]
    @NullEncodable var summary: String?
    let state: String
    let createdAt: Date
    let updatedAt: Date
    let createdBy: String

    enum CodingKeys: String, CodingKey {
        case uuid
        case petID = "pet_id"
        case appointmentID = "appointment_id"
        case practiceID = "practice_id"
        case visitDate = "visit_date"
        case fullText = "full_text"
        case audioTranscriptURL = "audio_transcript_url"
        case metadata, summary, state
        case createdAt = "created_at"
        case updatedAt = "updated_at"
        case createdBy = "created_by"
    }

    /// - Parameters:
    ///   - objectURL: the URL of a recording's stored object, built from its key for this response.
    ///   - hideDraftSummary: PET_OWNER callers never see a draft summary, neither the visit's nor a previous
    ///     recording's (DraftSummaries).
    init(_ v: Visit, objectURL: String?, hideDraftSummary: Bool) {
        self.init(VisitRow(v), objectURL: objectURL, hideDraftSummary: hideDraftSummary)
    }

    init(_ v: VisitRow, objectURL: String?, hideDraftSummary: Bool) {
        uuid = v.id.lowercased
        petID = v.petID.lowercased
        appointmentID = v.appointmentID?.lowercased
        practiceID = v.practiceID.lowercased
        visitDate = Int64(v.visitDate.timeIntervalSince1970.rounded(.down))
        fullText = v.fullText
        audioTranscriptURL = v.source == VisitSource.manual.rawValue ? v.audioTranscriptURL : objectURL
        metadata = hideDraftSummary ? DraftSummaries.hidden(in: v.metadata) : v.metadata
        summary = hideDraftSummary && DraftSummaries.isDraft(v.metadata) ? nil : v.summary
        state = v.state
        createdAt = v.createdAt
        updatedAt = v.updatedAt
        createdBy = v.createdBy.lowercased
    }
}
