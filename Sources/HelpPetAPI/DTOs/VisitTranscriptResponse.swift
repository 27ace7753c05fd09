import AppCore
import Foundation

struct VisitTranscriptResponse: Encodable, Sendable {
    let uuid: String
    let pet_id: String
    @NullEncodable var appointment_id: String?
    let practice_id: String
    /// Unix seconds: the only integer timestamp of the API.
    let visit_date: Int64
    let full_text: String
    @NullEncodable var audio_transcript_url: String?
    let metadata: [String: JSONValue]
    @NullEncodable var summary: String?
    let state: String
    let created_at: Date
    let updated_at: Date
    let created_by: String

    /// - Parameters:
    ///   - objectURL: the URL of a recording's stored object, built from its key for this response.
    ///   - hideDraftSummary: PET_OWNER callers never see a draft summary, neither the visit's nor a previous
    ///     recording's (DraftSummaries).
    init(_ v: Visit, objectURL: String?, hideDraftSummary: Bool) {
        self.init(VisitRow(v), objectURL: objectURL, hideDraftSummary: hideDraftSummary)
    }

    init(_ v: VisitRow, objectURL: String?, hideDraftSummary: Bool) {
        uuid = v.id.lowercased
        pet_id = v.pet_id.lowercased
        appointment_id = v.appointment_id?.lowercased
        practice_id = v.practice_id.lowercased
        visit_date = Int64(v.visit_date.timeIntervalSince1970.rounded(.down))
        full_text = v.full_text
        audio_transcript_url = v.source == VisitSource.manual.rawValue ? v.audio_transcript_url : objectURL
        metadata = hideDraftSummary ? DraftSummaries.hidden(in: v.metadata) : v.metadata
        summary = hideDraftSummary && DraftSummaries.isDraft(v.metadata) ? nil : v.summary
        state = v.state
        created_at = v.created_at
        updated_at = v.updated_at
        created_by = v.created_by.lowercased
    }
}
