import AppCore
import Foundation

/// The body of `PUT /api/v1/visit-transcripts/{visit_id}`, validated in the contract's field order.
struct VisitTranscriptUpdateRequest: Sendable {
    static let updatableKeys = ["full_text", "summary", "metadata", "state"]

    var fullText: String?
    var summary: FieldPatch<String>
    var metadata: [String: JSONValue]?
    var state: VisitState?

    init(_ fields: FieldReader) throws {
        fullText = try fields.optionalString("full_text", trim: false, min: 0, max: 200_000, nullable: false)
            .valueIfPresent
        summary = try fields.optionalString("summary", trim: false, max: 10_000)
        metadata = try VisitMetadata.read(fields)
        state = try fields.optionalEnum("state", VisitState.self).valueIfPresent
    }
}
