import AppCore
import Fluent
import Foundation

/// Inviting an address to a practice (`POST /practices/{id}/invites`): the pending invitation and its email are
/// written in one transaction, so an invitation never exists without its email and no email names an invitation
/// that was rolled back (docs/invitations.md).
struct PracticeInvitationSending: Sendable {
    let db: any Database
    /// `MAIL_FROM`.
    let mailFrom: String
    let metrics: MetricsRegistry?

    struct Invitation: Sendable {
        let practiceID: UUID
        let practiceName: String
        /// Lowercased and checked by the caller.
        let email: String
        let days: Int
        let invitedBy: UUID
        let inviterName: String
    }

    /// The new invitation's row. 409 when the address already belongs to a member of the practice or an
    /// invitation for it is pending.
    func send(_ invitation: Invitation, now: Date) async throws -> PracticeInviteRow {
        if let member = try await UserStore(db: db).withEmail(invitation.email),
            member.practiceID == invitation.practiceID
        {
            throw APIError.conflict("This address already belongs to a member of this practice")
        }
        let code = PracticeInvitation.newCode()
        let expiresAt = now.addingTimeInterval(TimeInterval(invitation.days) * 86_400)
        return try await db.writeTransaction { tx -> PracticeInviteRow in
            guard let row = try await PracticeInviteStore(db: tx).create(
                practiceID: invitation.practiceID, email: invitation.email, codeHash: ConsoleCredentials.hash(code),
                invitedBy: invitation.invitedBy, expiresAt: expiresAt, now: now)
            else { throw APIError.conflict("An invitation for this address is already pending") }
            try await OutgoingEmails(db: tx, mailFrom: mailFrom, metrics: metrics).enqueueInvitation(
                InvitationMailFacts(
                    inviteID: row.id, code: code, practiceName: invitation.practiceName,
                    inviterName: invitation.inviterName, recipient: invitation.email, expiresAt: expiresAt),
                now: now)
            return row
        }
    }
}
