import AppCore
import Fluent
import Foundation

/// What accepting an invitation wrote.
enum InviteAcceptanceWrite: Sendable {
    case accepted
    /// Another request used, revoked or outlived the invitation first: the row as it is now (nil if it is gone).
    case inviteNoLongerOpen(PracticeInviteRow?)
    /// The user joined a practice meanwhile; nothing was written.
    case userNoLongerPending
}

extension PracticeInviteStore {
    /// Marks the invitation accepted and makes its user a member of the practice, in one write transaction: both or
    /// neither. The conditions on both rows decide between concurrent acceptances (and an administrator's approval
    /// meanwhile), so one of them wins and the others change nothing.
    func accept(_ id: UUID, by userID: UUID, role: UserRole, practiceID: UUID, now: Date) async throws
        -> InviteAcceptanceWrite
    {
        do {
            try await db.writeTransaction { tx in
                let invites = PracticeInviteStore(db: tx)
                guard try await invites.markAccepted(id, by: userID, now: now) else {
                    throw Refused(outcome: .inviteNoLongerOpen(try await invites.find(id)))
                }
                guard try await UserStore(db: tx).admitPendingUser(userID, role: role, practiceID: practiceID, now: now)
                else { throw Refused(outcome: .userNoLongerPending) }
            }
            return .accepted
        } catch let refused as Refused {
            return refused.outcome
        }
    }

    /// Rolls the transaction back with the outcome to report.
    private struct Refused: Error { let outcome: InviteAcceptanceWrite }
}
