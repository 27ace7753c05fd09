import AppCore
import Fluent
import Foundation
import SQLKit

/// What authentication needs of a user, in one row: the user joined to the pet-owner record it is linked to.
struct CallerIdentityRow: Decodable, Sendable {
    let id: UUID
    let role: String
    let practiceID: UUID?
    let isActive: Bool
    let tokenVersion: Int
    let linkedPetOwnerID: UUID?
    /// For the console's header (the API never needs them; they ride along in the same row).
    let username: String
    let fullName: String

    enum CodingKeys: String, CodingKey {
        case id, role
        case practiceID = "practice_id"
        case isActive = "is_active"
        case tokenVersion = "token_version"
        case linkedPetOwnerID = "linked_pet_owner_id"
        case username
        case fullName = "full_name"
    }

    /// `User.role`'s mapping: a value outside the known roles reads as PET_OWNER (the least privileged).
    var userRole: UserRole { UserRole(rawValue: role) ?? .petOwner }
}

/// The SQL of the users aggregate that the read path needs.
struct UserStore: Sendable {
    let db: any Database

    func callerIdentity(_ id: UUID) async throws -> CallerIdentityRow? {
        try await db.sql.raw("""
            SELECT users.id, users.role, users.practice_id, users.is_active, users.token_version,
                pet_owners.id AS linked_pet_owner_id, users.username, users.full_name
            FROM users LEFT JOIN pet_owners ON pet_owners.user_id = users.id
            WHERE users.id = \(bind: id)
            """).first(decoding: CallerIdentityRow.self)
    }

    /// Voids every token of a user (contract §2.1), in the transaction of the change that requires it.
    func incrementTokenVersion(_ id: UUID) async throws {
        try await db.sql.raw("UPDATE users SET token_version = token_version + 1 WHERE id = \(bind: id)").run()
    }

    /// The caller's whole row, for the few routes that show or change it (the bearer check keeps only the identity).
    func callerUser(_ caller: Caller) async throws -> User {
        guard let user = try await User.find(caller.id, on: db) else {
            throw APIError.invalidCredentials
        }
        return user
    }

    func insert(_ user: User) async throws {
        try await user.create(on: db)
    }

    /// The practice a PENDING user asks to join (nil: none), only while still pending: an ADMIN who admitted the user
    /// meanwhile is not undone by a stale request.
    func setRequestedPractice(
        _ practiceID: UUID?, ofPendingUser id: UUID, now: Date
    ) async throws {
        try await User.query(on: db)
            .filter(\.$id == id).filter(\.$roleValue == UserRole.pending.rawValue)
            .set(\.$requestedPracticeID, to: practiceID).set(\.$updatedAt, to: now)
            .update()
    }

    /// Makes a PENDING user a member of `practiceID` with `role`, only while still pending (two concurrent self-service
    /// practice creations, or an ADMIN's approval meanwhile, leave one membership); false when no longer pending.
    func admitPendingUser(
        _ id: UUID, role: UserRole, practiceID: UUID, now: Date
    ) async throws -> Bool {
        let admitted = try await db.sql.raw("""
            UPDATE users SET role = \(bind: role.rawValue), practice_id = \(bind: practiceID),
                requested_role = NULL, requested_practice_id = NULL, updated_at = \(bind: now)
            WHERE id = \(bind: id) AND role = \(bind: UserRole.pending.rawValue) RETURNING id
            """).all()
        return !admitted.isEmpty
    }

    /// Links a pet-owner record to a new user unless another user was linked first (C4); false when it was.
    func linkPetOwner(_ ownerID: UUID, toUser userID: UUID, now: Date) async throws -> Bool {
        let linked = try await db.sql.raw("""
            UPDATE pet_owners SET user_id = \(bind: userID), updated_at = \(bind: now)
            WHERE id = \(bind: ownerID) AND user_id IS NULL RETURNING id
            """).all()
        return !linked.isEmpty
    }
}

extension UserStore {
    /// The user a login names; usernames are unique case-insensitively.
    func byUsername(_ username: String) async throws -> User? {
        try await User.query(on: db)
            .filter(.sql(unsafeRaw: "lower(username)"), .equal, .bind(username.lowercased())).first()
    }

    func usernameTaken(_ username: String) async throws -> Bool {
        try await User.query(on: db)
            .filter(.sql(unsafeRaw: "lower(username)"), .equal, .bind(username.lowercased())).count() > 0
    }

    func find(_ id: UUID) async throws -> User? {
        try await User.find(id, on: db)
    }

    /// The user whose stored email is exactly `email`, if any.
    func withEmail(_ email: String) async throws -> User? {
        try await User.query(on: db).filter(\.$email == email).first()
    }

    /// Whether a user other than `excluding` has the email, compared case-insensitively.
    func emailTaken(_ email: String, excluding: UUID?) async throws -> Bool {
        let query = User.query(on: db).filter(.sql(unsafeRaw: "lower(email)"), .equal, .bind(email.lowercased()))
        if let excluding { query.filter(\.$id != excluding) }
        return try await query.count() > 0
    }

    /// The users list's order: case-insensitive username, then id.
    static func orderedByUsername(_ builder: QueryBuilder<User>) -> QueryBuilder<User> {
        builder.sort(.sql(unsafeRaw: "lower(username)")).sort(\.$id)
    }

    /// Serializes writes that depend on a user (a vet's availability windows) on PostgreSQL.
    func lock(_ id: UUID) async throws {
        guard db.engine == .postgres else { return }
        _ = try await db.sql.raw("SELECT id FROM users WHERE id = \(bind: id) FOR UPDATE").all()
    }
}
