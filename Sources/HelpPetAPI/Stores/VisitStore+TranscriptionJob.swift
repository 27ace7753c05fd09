import AppCore
import Fluent
import Foundation
import SQLKit

/// What a transcription job needs of its visit, pet and appointment.
struct TranscriptionJobVisitRow: Decodable, Sendable {
    let practiceID: UUID
    let metadata: [String: JSONValue]
    let petName: String?
    let petWeight: Double?
    let appointmentType: String?
    let appointmentTitle: String?

    enum CodingKeys: String, CodingKey {
        case practiceID = "practice_id"
        case metadata
        case petName = "pet_name"
        case petWeight = "pet_weight"
        case appointmentType = "appointment_type"
        case appointmentTitle = "appointment_title"
    }
}

extension VisitStore {
    /// The job's visit with its pet's name and weight and its appointment's type and title, in one statement; nil
    /// when the job is stale: the visit is gone, no longer processing, or holds another recording now.
    func transcriptionJobVisit(_ id: UUID, storageKey: String) async throws -> TranscriptionJobVisitRow? {
        try await db.sql.raw("""
            SELECT v.practice_id, v.metadata, p.name AS pet_name, p.weight AS pet_weight,
                a.appointment_type, a.title AS appointment_title
            FROM visits v
            LEFT JOIN pets p ON p.id = v.pet_id
            LEFT JOIN appointments a ON a.id = v.appointment_id
            WHERE v.id = \(bind: id) AND v.state = 'processing' AND v.storage_key = \(bind: storageKey)
            """).first(decoding: TranscriptionJobVisitRow.self)
    }
}
