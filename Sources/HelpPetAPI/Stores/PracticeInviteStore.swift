import AppCore
import Fluent
import Foundation
import SQLKit

/// One row of `practice_invites` (M0127). The code is kept only as its SHA-256 (`codeHash`).
struct PracticeInviteRow: Decodable, Sendable, Equatable {
    let id: UUID
    let practiceID: UUID
    let email: String
    let codeHash: String
    let invitedBy: UUID?
    let expiresAt: Date
    let createdAt: Date
    let acceptedAt: Date?
    let acceptedBy: UUID?
    let revokedAt: Date?

    enum CodingKeys: String, CodingKey {
        case id, email
        case practiceID = "practice_id", codeHash = "code_hash", invitedBy = "invited_by", expiresAt = "expires_at"
        case createdAt = "created_at", acceptedAt = "accepted_at", acceptedBy = "accepted_by", revokedAt = "revoked_at"
    }

    func state(at now: Date) -> InviteState {
        InviteState.at(now, acceptedAt: acceptedAt, revokedAt: revokedAt, expiresAt: expiresAt)
    }
}

/// Every statement on `practice_invites`.
struct PracticeInviteStore: Sendable {
    let db: any Database

    static let columns = """
        id, practice_id, email, code_hash, invited_by, expires_at, created_at, accepted_at, accepted_by, revoked_at
        """

    /// Inserts a pending invitation; nil when an open one for the same practice and address exists (the unique index
    /// decides, so two concurrent invitations leave one). An open invitation that has expired gives way: it is marked
    /// revoked first, so the address can be invited again.
    func create(
        practiceID: UUID, email: String, codeHash: String, invitedBy: UUID, expiresAt: Date, now: Date
    ) async throws -> PracticeInviteRow? {
        try await db.sql.raw("""
            UPDATE practice_invites SET revoked_at = \(bind: now)
            WHERE practice_id = \(bind: practiceID) AND email = \(bind: email)
              AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at <= \(bind: now)
            """).run()
        return try await db.sql.raw("""
            INSERT INTO practice_invites (id, practice_id, email, code_hash, invited_by, expires_at, created_at)
            VALUES (\(bind: UUID()), \(bind: practiceID), \(bind: email), \(bind: codeHash), \(bind: invitedBy),
                \(bind: expiresAt), \(bind: now))
            ON CONFLICT DO NOTHING
            RETURNING \(unsafeRaw: Self.columns)
            """).first(decoding: PracticeInviteRow.self)
    }

    func find(_ id: UUID) async throws -> PracticeInviteRow? {
        try await db.sql.raw("SELECT \(unsafeRaw: Self.columns) FROM practice_invites WHERE id = \(bind: id)")
            .first(decoding: PracticeInviteRow.self)
    }

    /// A practice's invitations, newest first.
    func list(practiceID: UUID) async throws -> [PracticeInviteRow] {
        try await db.sql.raw("""
            SELECT \(unsafeRaw: Self.columns) FROM practice_invites WHERE practice_id = \(bind: practiceID)
            ORDER BY created_at DESC, id DESC
            """).all(decoding: PracticeInviteRow.self)
    }

    /// Revokes an invitation that is still open; false when it was accepted or revoked meanwhile.
    func revoke(_ id: UUID, now: Date) async throws -> Bool {
        let rows = try await db.sql.raw("""
            UPDATE practice_invites SET revoked_at = \(bind: now)
            WHERE id = \(bind: id) AND accepted_at IS NULL AND revoked_at IS NULL RETURNING id
            """).all()
        return !rows.isEmpty
    }

    /// Marks the invitation used by `userID`, only while still open and unexpired: of two concurrent acceptances one
    /// wins. Called in the transaction that makes the user a member.
    func markAccepted(_ id: UUID, by userID: UUID, now: Date) async throws -> Bool {
        let rows = try await db.sql.raw("""
            UPDATE practice_invites SET accepted_at = \(bind: now), accepted_by = \(bind: userID)
            WHERE id = \(bind: id) AND accepted_at IS NULL AND revoked_at IS NULL AND expires_at > \(bind: now)
            RETURNING id
            """).all()
        return !rows.isEmpty
    }
}
