import AppCore
import Foundation

/// Where an invitation stands. Used and revoked win over expired: the answer names what happened to it.
enum InviteState: String, Sendable, Equatable {
    case pending, accepted, revoked, expired

    /// The state at `now`.
    static func at(_ now: Date, acceptedAt: Date?, revokedAt: Date?, expiresAt: Date) -> InviteState {
        if acceptedAt != nil { return .accepted }
        if revokedAt != nil { return .revoked }
        return expiresAt <= now ? .expired : .pending
    }
}

/// The rules of practice invitations (docs/invitations.md), on values.
enum PracticeInvitation {
    /// `expiration_days` of `POST /practices/{id}/invites`: 7 when absent, 1 to 30.
    static let defaultDays = 7
    static let dayRange: ClosedRange<Int64> = 1...30
    /// The role an accepted invitation gives.
    static let role = UserRole.vetStaff

    /// Who may invite to a practice: ADMIN to any, VET to their own (checked with the practice's visibility).
    static func mayInvite(_ role: UserRole) -> Bool { role == .admin || role == .vet }

    /// The refusal for an invitation that cannot be accepted any more, or nil when it is still pending.
    static func refusal(_ state: InviteState) -> APIError? {
        switch state {
        case .pending: return nil
        case .accepted: return APIError(.gone, "This invitation has already been used")
        case .revoked: return APIError(.gone, "This invitation has been revoked")
        case .expired: return APIError(.gone, "This invitation has expired")
        }
    }

    /// Whether a user of `role` (with `practiceID`) may accept an invitation to `invitedTo`; the refusal otherwise.
    static func acceptanceRefusal(role: UserRole, practiceID: UUID?, invitedTo: UUID) -> APIError? {
        switch role {
        case .pending: return nil
        case .vet, .vetStaff:
            return practiceID == invitedTo
                ? APIError.conflict("You already belong to this practice")
                : APIError.conflict("You already belong to a practice; an administrator can move you to another one")
        case .admin: return APIError.conflict("Administrators do not belong to a practice")
        case .petOwner: return APIError.forbidden("Pet owners cannot join a practice as staff")
        }
    }

    /// Codes are compared as their SHA-256, in time independent of where they differ.
    static func codeMatches(_ presented: String, storedHash: String) -> Bool {
        Array(ConsoleCredentials.hash(presented).utf8).constantTimeEquals(Array(storedHash.utf8))
    }

    /// 12 characters from an alphabet without look-alikes (about 60 bits): typed from an email if need be, and
    /// guessing is capped by the attempt ledger and the expiry.
    static func newCode() -> String {
        let alphabet = Array("ABCDEFGHJKLMNPQRSTUVWXYZ23456789")
        var generator = SystemRandomNumberGenerator()
        return String((0..<12).map { _ in alphabet[Int(generator.next(upperBound: UInt32(alphabet.count)))] })
    }
}
