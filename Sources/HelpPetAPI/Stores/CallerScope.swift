import AppCore
import Foundation
import SQLKit

/// The visibility rules of contract §2.5 (`Visibility`) as SQL conditions, so a read checks them inside its one
/// statement: a row the caller may not see is simply not returned, and the answer is the same 404 as for a missing
/// one. `UUID()` stands for "nothing": a member without a practice or an owner without a record matches no row.
enum CallerScope {
    /// An appointment row (`alias`): ADMIN all, members their practice's, owners their own.
    static func appointment(_ alias: String, caller: Caller) -> SQLQueryString {
        switch caller.role {
        // Signed up, not admitted (PendingMembershipGate refuses them first; this keeps the SQL safe on its own).
        case .pending: return "FALSE"
        case .admin: return "TRUE"
        case .vet, .vetStaff: return "\(unsafeRaw: alias).practice_id = \(bind: caller.practiceID ?? UUID())"
        case .petOwner: return "\(unsafeRaw: alias).pet_owner_id = \(bind: caller.petOwnerID ?? UUID())"
        }
    }

    /// A pet row (`alias`): ADMIN all, members the pets of their practice's clients, owners their own.
    static func pet(_ alias: String, caller: Caller) -> SQLQueryString {
        switch caller.role {
        // Signed up, not admitted (PendingMembershipGate refuses them first; this keeps the SQL safe on its own).
        case .pending: return "FALSE"
        case .admin: return "TRUE"
        case .vet, .vetStaff:
            return """
                EXISTS (SELECT 1 FROM pet_owner_practices scope_link
                    WHERE scope_link.pet_owner_id = \(unsafeRaw: alias).owner_id
                    AND scope_link.practice_id = \(bind: caller.practiceID ?? UUID()))
                """
        case .petOwner: return "\(unsafeRaw: alias).owner_id = \(bind: caller.petOwnerID ?? UUID())"
        }
    }

    /// A visit row (`alias`): ADMIN all, members their current practice's, owners those of their pets.
    static func visit(_ alias: String, caller: Caller) -> SQLQueryString {
        switch caller.role {
        // Signed up, not admitted (PendingMembershipGate refuses them first; this keeps the SQL safe on its own).
        case .pending: return "FALSE"
        case .admin: return "TRUE"
        case .vet, .vetStaff: return "\(unsafeRaw: alias).practice_id = \(bind: caller.practiceID ?? UUID())"
        case .petOwner:
            return """
                EXISTS (SELECT 1 FROM pets scope_pet WHERE scope_pet.id = \(unsafeRaw: alias).pet_id
                    AND scope_pet.owner_id = \(bind: caller.petOwnerID ?? UUID()))
                """
        }
    }

    /// The rows of a pet-scoped list a caller sees once the pet itself is visible (`alias` has `practice_id`):
    /// members only their practice's rows, ADMIN and the owner all of them.
    static func practiceRows(_ alias: String, caller: Caller) -> SQLQueryString {
        if caller.role == .pending { return "FALSE" }
        return caller.isMember ? "\(unsafeRaw: alias).practice_id = \(bind: caller.practiceID ?? UUID())" : "TRUE"
    }
}
