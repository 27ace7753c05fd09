import AppCore
import Fluent
import Foundation

/// The administrators' user management (`/users`).
extension UserStore {
    /// One page of users by case-insensitive username then id, with the total. Without a `role` the pending users
    /// are left out (the list keeps the contract's four role values).
    func list(practiceID: UUID?, role: UserRole?, isActive: Bool?, page: Pagination) async throws
        -> (users: [User], total: Int)
    {
        let builder = User.query(on: db)
        if let practiceID { builder.filter(\.$practiceID == practiceID) }
        if let role {
            builder.filter(\.$roleValue == role.rawValue)
        } else {
            builder.filter(\.$roleValue != UserRole.pending.rawValue)
        }
        if let isActive { builder.filter(\.$isActive == isActive) }
        let total = try await builder.count()
        let users = try await Self.orderedByUsername(builder).range(page.range).all()
        return (users, total)
    }

    /// 409 when the username (case-insensitively) or the email is taken, in that order.
    func requireFree(username: String, email: String) async throws {
        if try await usernameTaken(username) { throw APIError.usernameTaken }
        if try await emailTaken(email, excluding: nil) { throw APIError.emailTaken }
    }

    /// The linked pet-owner ids of the given users (PET_OWNER users only), in one query.
    func petOwnerIDs(of users: [User]) async throws -> [UUID: UUID] {
        let ids = users.filter { $0.role == .petOwner }.compactMap(\.id)
        guard !ids.isEmpty else { return [:] }
        let owners = try await PetOwner.query(on: db).filter(\.$userID ~~ ids).all()
        var result: [UUID: UUID] = [:]
        for owner in owners { if let user = owner.userID { result[user] = owner.id! } }
        return result
    }

    /// A new user, linked to its pet-owner record in the same write transaction. False (nothing written) when a
    /// concurrent request linked that owner first: the link is conditional. A unique violation (username or email)
    /// is thrown as it is.
    func insert(_ user: User, linkingOwner ownerID: UUID?, now: Date) async throws -> Bool {
        do {
            try await db.writeTransaction { tx in
                try await user.create(on: tx)
                if let ownerID, try await !UserStore(db: tx).linkPetOwner(ownerID, toUser: user.id!, now: now) {
                    throw OwnerLinkedMeanwhile()
                }
            }
            return true
        } catch is OwnerLinkedMeanwhile {
            return false
        }
    }

    /// Saves the changed fields of a user read as a tracked model; with `voidingTokens` the token version moves on
    /// in the same transaction, so no token minted before the change's commit survives it.
    func save(_ user: User, voidingTokens: Bool) async throws {
        try await db.writeTransaction { tx in
            try await user.update(on: tx)
            if voidingTokens { try await UserStore(db: tx).incrementTokenVersion(user.id!) }
        }
    }

    private struct OwnerLinkedMeanwhile: Error {}
}
