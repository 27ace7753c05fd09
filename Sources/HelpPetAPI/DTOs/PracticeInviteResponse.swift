import Foundation

/// An invitation as the practice's staff see it (`POST`/`GET /practices/{id}/invites`): never the code, which exists
/// only in the email. Every key is always present (null when not applicable).
struct PracticeInviteResponse: Encodable, Sendable {
    let id: UUID
    let practiceID: UUID
    let email: String
    let status: String
    let expiresAt: Date
    let createdAt: Date
    let invitedBy: UUID?
    let acceptedAt: Date?
    let acceptedBy: UUID?
    let revokedAt: Date?

    init(_ row: PracticeInviteRow, now: Date) {
        id = row.id
        practiceID = row.practiceID
        email = row.email
        status = row.state(at: now).rawValue
        expiresAt = row.expiresAt
        createdAt = row.createdAt
        invitedBy = row.invitedBy
        acceptedAt = row.acceptedAt
        acceptedBy = row.acceptedBy
        revokedAt = row.revokedAt
    }

    enum CodingKeys: String, CodingKey {
        case id, email, status
        case practiceID = "practice_id", expiresAt = "expires_at", createdAt = "created_at", invitedBy = "invited_by"
        case acceptedAt = "accepted_at", acceptedBy = "accepted_by", revokedAt = "revoked_at"
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id.lowercased, forKey: .id)
        try c.encode(practiceID.lowercased, forKey: .practiceID)
        try c.encode(email, forKey: .email)
        try c.encode(status, forKey: .status)
        try c.encode(expiresAt, forKey: .expiresAt)
        try c.encode(createdAt, forKey: .createdAt)
        try c.encode(invitedBy?.lowercased, forKey: .invitedBy)
        try c.encode(acceptedAt, forKey: .acceptedAt)
        try c.encode(acceptedBy?.lowercased, forKey: .acceptedBy)
        try c.encode(revokedAt, forKey: .revokedAt)
    }
}

/// What anyone holding an invitation's id may see (`GET /invites/{id}`): the practice's public details and the
/// invitation's state. No code, no address.
struct PublicInviteResponse: Encodable, Sendable {
    let id: UUID
    let practiceID: UUID
    let practiceName: String
    let practiceAddress: String?
    let practicePhone: String?
    let role: String
    let status: String
    let expiresAt: Date

    enum CodingKeys: String, CodingKey {
        case id, role, status
        case practiceID = "practice_id", practiceName = "practice_name", practiceAddress = "practice_address"
        case practicePhone = "practice_phone", expiresAt = "expires_at"
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id.lowercased, forKey: .id)
        try c.encode(practiceID.lowercased, forKey: .practiceID)
        try c.encode(practiceName, forKey: .practiceName)
        try c.encode(practiceAddress, forKey: .practiceAddress)
        try c.encode(practicePhone, forKey: .practicePhone)
        try c.encode(role, forKey: .role)
        try c.encode(status, forKey: .status)
        try c.encode(expiresAt, forKey: .expiresAt)
    }
}
