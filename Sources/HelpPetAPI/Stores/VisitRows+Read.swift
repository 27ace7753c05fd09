import AppCore
import Foundation

/// A visit's columns (`visits`), as the read path decodes them.
struct VisitRow: Decodable, Sendable {
    let id: UUID
    let pet_id: UUID
    let practice_id: UUID
    let appointment_id: UUID?
    let source: String
    let state: String
    let visit_date: Date
    let full_text: String
    let summary: String?
    let audio_transcript_url: String?
    let storage_key: String?
    let metadata: [String: JSONValue]
    let created_by: UUID
    let created_at: Date
    let updated_at: Date

    var visitState: VisitState { VisitState(rawValue: state) ?? .new }
}

/// One row of `TranscriptStore.listForPet`: the total, and one visit of the page (NULL columns when the page is
/// empty).
struct VisitPageRow: Decodable, Sendable {
    let total: Int
    let visit: VisitRow?

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        total = try container.decode(Int.self, forKey: .total)
        // The page's LEFT JOIN leaves every visit column NULL when there is no visit on the page.
        visit = try container.decodeNil(forKey: .id) ? nil : try VisitRow(from: decoder)
    }

    private enum Key: String, CodingKey { case total, id }
}

extension VisitRow {
    init(_ v: Visit) {
        id = v.id!
        pet_id = v.petID
        practice_id = v.practiceID
        appointment_id = v.appointmentID
        source = v.source
        state = v.stateValue
        visit_date = v.visitDate
        full_text = v.fullText
        summary = v.summary
        audio_transcript_url = v.audioTranscriptURL
        storage_key = v.storageKey
        metadata = v.metadata
        created_by = v.createdBy
        created_at = v.createdAt
        updated_at = v.updatedAt
    }
}
