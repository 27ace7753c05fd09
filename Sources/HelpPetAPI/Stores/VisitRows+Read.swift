import AppCore
import Foundation

/// A visit's columns (`visits`), as the read path decodes them.
struct VisitRow: Decodable, Sendable {
    let id: UUID
    let petID: UUID
    let practiceID: UUID
    let appointmentID: UUID?
    let source: String
    let state: String
    let visitDate: Date
    let fullText: String
    let summary: String?
    let audioTranscriptURL: String?
    let storageKey: String?
    let metadata: [String: JSONValue]
    let createdBy: UUID
    let createdAt: Date
    let updatedAt: Date

    enum CodingKeys: String, CodingKey {
        case id
        case petID = "pet_id"
        case practiceID = "practice_id"
        case appointmentID = "appointment_id"
        case source, state
        case visitDate = "visit_date"
        case fullText = "full_text"
        case summary
        case audioTranscriptURL = "audio_transcript_url"
        case storageKey = "storage_key"
        case metadata
        case createdBy = "created_by"
        case createdAt = "created_at"
        case updatedAt = "updated_at"
    }

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
        petID = v.petID
        practiceID = v.practiceID
        appointmentID = v.appointmentID
        source = v.source
        state = v.stateValue
        visitDate = v.visitDate
        fullText = v.fullText
        summary = v.summary
        audioTranscriptURL = v.audioTranscriptURL
        storageKey = v.storageKey
        metadata = v.metadata
        createdBy = v.createdBy
        createdAt = v.createdAt
        updatedAt = v.updatedAt
    }
}
