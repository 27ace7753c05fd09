import Foundation

/// `GET /visit-transcripts/{visit_id}/discharge-instructions`: the owner's take-home text of an approved note, as
/// parts (for an app to lay out) and as `text` (for printing or sharing as it is).
struct DischargeInstructionsResponse: Encodable, Sendable {
    struct Medication: Encodable, Sendable {
        let name: String
        let instructions: String
    }

    let visitID: String
    let petID: String
    let petName: String
    let practiceName: String
    let visitDate: String
    let approvedAt: String?
    let found: [String]
    let medications: [Medication]
    let comeBack: String?
    let watchFor: [String]
    let addenda: [String]
    let text: String

    init(visitID: UUID, petID: UUID, _ instructions: DischargeInstructions) {
        self.visitID = visitID.lowercased
        self.petID = petID.lowercased
        petName = instructions.petName
        practiceName = instructions.practiceName
        visitDate = instructions.visitDay
        approvedAt = instructions.approvedAt
        found = instructions.found
        medications = instructions.medications.map { .init(name: $0.name, instructions: $0.instructions) }
        comeBack = instructions.comeBack
        watchFor = instructions.watchFor
        addenda = instructions.addenda
        text = instructions.text
    }

    enum CodingKeys: String, CodingKey {
        case visitID = "visit_id", petID = "pet_id", petName = "pet_name", practiceName = "practice_name", visitDate = "visit_date", approvedAt = "approved_at", found, medications, comeBack = "come_back",
            watchFor = "watch_for", addenda, text
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(visitID, forKey: .visitID)
        try c.encode(petID, forKey: .petID)
        try c.encode(petName, forKey: .petName)
        try c.encode(practiceName, forKey: .practiceName)
        try c.encode(visitDate, forKey: .visitDate)
        try c.encode(approvedAt, forKey: .approvedAt)
        try c.encode(found, forKey: .found)
        try c.encode(medications, forKey: .medications)
        try c.encode(comeBack, forKey: .comeBack)
        try c.encode(watchFor, forKey: .watchFor)
        try c.encode(addenda, forKey: .addenda)
        try c.encode(text, forKey: .text)
    }
}
