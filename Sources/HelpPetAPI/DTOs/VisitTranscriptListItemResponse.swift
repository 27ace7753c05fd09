import AppCore
import Foundation

/// An item of `GET /visit-transcripts/pet/{id}`: the visit as everywhere, plus the two keys the iPhone app's
/// `VisitTranscriptListItem` requires.
struct VisitTranscriptListItemResponse: Encodable, Sendable {
    let visit: VisitTranscriptResponse
    /// A recording's object is attached (the recording was completed and is stored).
    let has_audio: Bool
    /// `metadata.chief_complaint` when it is a string.
    @NullEncodable var chief_complaint: String?

    enum CodingKeys: String, CodingKey { case has_audio, chief_complaint }

    init(_ visit: VisitRow, objectURL: String?, hideDraftSummary: Bool) {
        self.visit = VisitTranscriptResponse(visit, objectURL: objectURL, hideDraftSummary: hideDraftSummary)
        has_audio = visit.source == VisitSource.recording.rawValue && objectURL != nil
        if case .string(let complaint)? = visit.metadata["chief_complaint"] { chief_complaint = complaint }
    }

    func encode(to encoder: any Encoder) throws {
        try visit.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(has_audio, forKey: .has_audio)
        try container.encode(_chief_complaint, forKey: .chief_complaint)
    }
}
