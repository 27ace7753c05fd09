import Foundation

/// `GET /visit-transcripts/{visit_id}/discharge-instructions`: the owner's take-home text of an approved note, as
/// parts (for an app to lay out) and as `text` (for printing or sharing as it is).
struct DischargeInstructionsResponse: Encodable, Sendable {
    struct Medication: Encodable, Sendable {
        let name: String
        let instructions: String
    }

    let visit_id: String
    let pet_id: String
    let pet_name: String
    let practice_name: String
    let visit_date: String
    let approved_at: String?
    let found: [String]
    let medications: [Medication]
    let come_back: String?
    let watch_for: [String]
    let addenda: [String]
    let text: String

    init(visitID: UUID, petID: UUID, _ instructions: DischargeInstructions) {
        visit_id = visitID.lowercased
        pet_id = petID.lowercased
        pet_name = instructions.petName
        practice_name = instructions.practiceName
        visit_date = instructions.visitDay
        approved_at = instructions.approvedAt
        found = instructions.found
        medications = instructions.medications.map { .init(name: $0.name, instructions: $0.instructions) }
        come_back = instructions.comeBack
        watch_for = instructions.watchFor
        addenda = instructions.addenda
        text = instructions.text
    }

    enum CodingKeys: String, CodingKey {
        case visit_id, pet_id, pet_name, practice_name, visit_date, approved_at, found, medications, come_back,
            watch_for, addenda, text
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(visit_id, forKey: .visit_id)
        try c.encode(pet_id, forKey: .pet_id)
        try c.encode(pet_name, forKey: .pet_name)
        try c.encode(practice_name, forKey: .practice_name)
        try c.encode(visit_date, forKey: .visit_date)
        try c.encode(approved_at, forKey: .approved_at)
        try c.encode(found, forKey: .found)
        try c.encode(medications, forKey: .medications)
        try c.encode(come_back, forKey: .come_back)
        try c.encode(watch_for, forKey: .watch_for)
        try c.encode(addenda, forKey: .addenda)
        try c.encode(text, forKey: .text)
    }
}
