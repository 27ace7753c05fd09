import AppCore
import Foundation
import SQLKit

/// A caller's `Reach` as SQL conditions, one per kind of row, so every read checks the access rules inside its one
/// statement: a row the caller may not see is simply not returned, and the answer is the same 404 as for a missing one.
/// `alias` names the row's table in the statement.
enum CallerScope {
    /// An appointment row: the practice's, or the owner's own.
    static func appointment(_ alias: String, caller: Caller) -> SQLQueryString {
        switch Reach(caller) {
        case .everything: "TRUE"
        case .nothing: "FALSE"
        case .practice(let practice): "\(unsafeRaw: alias).practice_id = \(bind: practice)"
        case .owner(let owner): "\(unsafeRaw: alias).pet_owner_id = \(bind: owner)"
        }
    }

    /// A pet row: the pets of the practice's clients, or the owner's own.
    static func pet(_ alias: String, caller: Caller) -> SQLQueryString {
        switch Reach(caller) {
        case .everything: "TRUE"
        case .nothing: "FALSE"
        case .practice(let practice): clientLink(owner: "\(alias).owner_id", practice: practice)
        case .owner(let owner): "\(unsafeRaw: alias).owner_id = \(bind: owner)"
        }
    }

    /// A visit row: the practice's, or those of the owner's pets.
    static func visit(_ alias: String, caller: Caller) -> SQLQueryString {
        petScopedRecord(alias, caller: caller)
    }

    /// A medical record row: the practice's, or those of the owner's pets.
    static func medicalRecord(_ alias: String, caller: Caller) -> SQLQueryString {
        petScopedRecord(alias, caller: caller)
    }

    /// A pet-owner row: the practice's clients, or the owner themself.
    static func petOwner(_ alias: String, caller: Caller) -> SQLQueryString {
        switch Reach(caller) {
        case .everything: "TRUE"
        case .nothing: "FALSE"
        case .practice(let practice): clientLink(owner: "\(alias).id", practice: practice)
        case .owner(let owner): "\(unsafeRaw: alias).id = \(bind: owner)"
        }
    }

    /// A practice row: the member's own, or a practice the owner is a client of.
    static func practice(_ alias: String, caller: Caller) -> SQLQueryString {
        switch Reach(caller) {
        case .everything: "TRUE"
        case .nothing: "FALSE"
        case .practice(let practice): "\(unsafeRaw: alias).id = \(bind: practice)"
        case .owner(let owner):
            """
            EXISTS (SELECT 1 FROM pet_owner_practices scope_link
                WHERE scope_link.practice_id = \(unsafeRaw: alias).id AND scope_link.pet_owner_id = \(bind: owner))
            """
        }
    }

    /// The rows of a pet-scoped list once the pet itself is visible (`alias` has `practice_id`): members see only
    /// their practice's rows, ADMIN and the owner all of them.
    static func practiceRows(_ alias: String, caller: Caller) -> SQLQueryString {
        switch Reach(caller) {
        case .everything, .owner: "TRUE"
        case .nothing: "FALSE"
        case .practice(let practice): "\(unsafeRaw: alias).practice_id = \(bind: practice)"
        }
    }

    /// The owner in column `owner` is a client of `practice`.
    private static func clientLink(owner column: String, practice: UUID) -> SQLQueryString {
        """
        EXISTS (SELECT 1 FROM pet_owner_practices scope_link
            WHERE scope_link.pet_owner_id = \(unsafeRaw: column) AND scope_link.practice_id = \(bind: practice))
        """
    }

    /// A row written in a practice about a pet (`practice_id`, `pet_id`).
    private static func petScopedRecord(_ alias: String, caller: Caller) -> SQLQueryString {
        switch Reach(caller) {
        case .everything: "TRUE"
        case .nothing: "FALSE"
        case .practice(let practice): "\(unsafeRaw: alias).practice_id = \(bind: practice)"
        case .owner(let owner):
            """
            EXISTS (SELECT 1 FROM pets scope_pet WHERE scope_pet.id = \(unsafeRaw: alias).pet_id
                AND scope_pet.owner_id = \(bind: owner))
            """
        }
    }
}
