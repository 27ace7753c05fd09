import AppCore
import Foundation

/// An item of `GET /visit-transcripts/pet/{id}`: the visit as everywhere, plus the two keys the iPhone app's
/// `VisitTranscriptListItem` requires.
struct VisitTranscriptListItemResponse: Encodable, Sendable {
    let visit: VisitTranscriptResponse
    /// A recording's object is attached (the recording was completed and is stored).
    let hasAudio: Bool
    /// `metadata.chief_complaint` when it is a string.
    @NullEncodable var chiefComplaint: String?

    enum CodingKeys: String, CodingKey { case hasAudio = "has_audio", chiefComplaint = "chief_complaint" }

    init(_ visit: VisitRow, objectURL: String?, hideDraftSummary: Bool) {
        self.visit = VisitTranscriptResponse(visit, objectURL: objectURL, hideDraftSummary: hideDraftSummary)
        hasAudio = visit.source == VisitSource.recording.rawValue && objectURL != nil
        if case .string(let complaint)? = visit.metadata["chief_complaint"] { chiefComplaint = complaint }
    }

    func encode(to encoder: any Encoder) throws {
        try visit.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(hasAudio, forKey: .hasAudio)
        try container.encode(_chiefComplaint, forKey: .chiefComplaint)
    }
}
