import AppCore
import Foundation
import Vapor

/// The authenticated user of a request, as the database says at most one second ago (no role claims in tokens;
/// ReadPathCaches).
struct Caller: Sendable {
    let id: UUID
    let role: UserRole
    let practiceID: UUID?
    /// The linked pet-owner record of a PET_OWNER.
    let petOwnerID: UUID?

    var isAdmin: Bool { role == .admin }
    var isMember: Bool { role.isMember }
    var isOwner: Bool { role == .petOwner }

    func requireAdmin() throws {
        guard isAdmin else { throw APIError.administratorRequired }
    }

    func requireStaff() throws {
        guard role.isStaff else { throw APIError.forbidden("Veterinary staff or administrator access required") }
    }
}

extension Request {
    private struct CallerKey: StorageKey { typealias Value = Caller }

    var caller: Caller {
        get throws {
            guard let caller = storage[CallerKey.self] else { throw APIError.notAuthenticated }
            return caller
        }
    }

    func setCaller(_ caller: Caller) { storage[CallerKey.self] = caller }
}
