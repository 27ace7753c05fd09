import AppCore
import Fluent
import Foundation
import Vapor

/// The users API (ADMIN only).
struct UsersController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        let users = routes.grouped("users")
        users.get(use: list)
        users.post(use: create)
        users.get(":user_id", use: show)
        users.put(":user_id", use: update)
    }

    @Sendable func list(req: Request) async throws -> Response {
        try req.caller.requireAdmin()
        let query = req.queryParameters
        let practiceID = try query.uuid("practice_id", kind: .practice)
        let role = try PendingApproval.roleFilter(query)
        let isActive = try query.optionalBool("is_active")
        let page = try query.pagination()

        let (users, total) = try await req.users.list(
            practiceID: practiceID, role: role, isActive: isActive, page: page)
        let owners = try await req.users.petOwnerIDs(of: users)
        return try JSONResponse.page(users.map { UserResponse($0, petOwnerID: owners[$0.id!]) }, total: total)
    }

    @Sendable func show(req: Request) async throws -> Response {
        try req.caller.requireAdmin()
        let id = try req.pathID("user_id", .user)
        guard let user = try await req.users.find(id) else { throw APIError.userNotFound }
        let owners = try await req.users.petOwnerIDs(of: [user])
        return try JSONResponse.make(UserResponse(user, petOwnerID: owners[id]))
    }

    @Sendable func create(req: Request) async throws -> Response {
        try req.caller.requireAdmin()
        let fields = try req.jsonObject()
        let username = try fields.requiredString("username", min: 3, max: 50)
        guard username.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "_" || $0 == "-") })
        else { throw APIError.badRequest("username may only contain letters, digits, '.', '_' and '-'") }
        let password = try Self.password(fields, required: true)!
        let email = try fields.email("email", required: true).valueIfPresent!
        let fullName = try fields.requiredString("full_name", max: 100)
        let role = try fields.requiredEnum("role", UserRole.self)
        let practiceID = try fields.optionalUUID("practice_id", kind: .practice).valueIfPresent
        let petOwnerID = try fields.optionalUUID("pet_owner_id", kind: .petOwner).valueIfPresent
        let isActive = try fields.optionalBool("is_active") ?? true

        try Self.checkRoleLinks(role: role, practiceID: practiceID, petOwnerID: petOwnerID)
        if let practiceID, try await req.practices.practice(practiceID) == nil {
            throw APIError.practiceNotFound
        }
        var owner: PetOwner?
        if let petOwnerID {
            guard let found = try await req.petOwners.owner(petOwnerID) else {
                throw APIError.petOwnerNotFound
            }
            owner = found
        }
        try await req.users.requireFree(username: username, email: email)
        if let owner, owner.userID != nil { throw APIError.ownerLinkedToUser }

        let hash = try await req.core.passwordHasher.hash(password)
        let now = req.now
        let user = User(
            username: username, email: email, fullName: fullName, role: role, practiceID: practiceID,
            passwordHash: hash, isActive: isActive, now: now)
        do {
            // A concurrent request that linked the owner first wins.
            guard try await req.users.insert(user, linkingOwner: petOwnerID, now: now) else {
                throw APIError.ownerLinkedToUser
            }
        } catch where DatabaseFailure.isUniqueViolation(error) {
            try await req.users.requireFree(username: username, email: email)
            throw APIError.usernameTaken
        }
        return try JSONResponse.make(UserResponse(user, petOwnerID: petOwnerID), status: .created)
    }

    @Sendable func update(req: Request) async throws -> Response {
        let caller = try req.caller
        try caller.requireAdmin()
        let id = try req.pathID("user_id", .user)
        let fields = try req.jsonObject()
        let email = try fields.email("email", required: false)
        let fullName = try fields.optionalString("full_name", min: 1, max: 100, nullable: false)
        let role = try fields.optionalEnum("role", UserRole.self)
        let practiceID = try fields.optionalUUID("practice_id", kind: .practice)
        let isActive = try fields.optionalBool("is_active")
        let password = try Self.password(fields, required: false)
        guard fields.containsAny(of: ["email", "full_name", "role", "practice_id", "is_active", "password"]) else {
            throw APIError.nothingToUpdate
        }
        guard let user = try await req.users.find(id) else { throw APIError.userNotFound }
        let ownerID = try await req.users.petOwnerIDs(of: [user])[id]
        try fields.requireUnchanged("id", current: id.lowercased)
        try fields.requireUnchanged("username", current: user.username)
        try fields.requireUnchanged("pet_owner_id", current: ownerID?.lowercased)

        let newRole = role.valueIfPresent ?? PendingApproval.role(of: user, admittedTo: practiceID.valueIfPresent)
        if (newRole == .petOwner) != (user.role == .petOwner) {
            throw APIError.badRequest("Cannot change role to or from PET_OWNER")
        }
        let newPractice = practiceID.applied(to: user.practiceID)
        try Self.checkRoleLinks(role: newRole, practiceID: newPractice, petOwnerID: ownerID)
        if let p = practiceID.valueIfPresent, try await req.practices.practice(p) == nil {
            throw APIError.practiceNotFound
        }
        if let newEmail = email.valueIfPresent, newEmail.lowercased() != user.email.lowercased() {
            if try await req.users.emailTaken(newEmail, excluding: id) {
                throw APIError.emailTaken
            }
        }
        if id == caller.id && ((isActive == false) || newRole != user.role) {
            throw APIError.conflict("You cannot deactivate or change the role of your own account")
        }

        // A password, role or activation change voids the user's tokens (contract §2.1).
        let voidsTokens = password != nil || PendingApproval.roleChangeVoidsTokens(from: user.role, to: newRole)
            || (isActive == false && user.isActive)
        let now = req.now
        if let v = email.valueIfPresent { user.setIfChanged(\.email, v) }
        if let v = fullName.valueIfPresent { user.setIfChanged(\.fullName, v) }
        user.setIfChanged(\.roleValue, newRole.rawValue)
        user.setIfChanged(\.practiceID, newPractice)
        PendingApproval.clearRequest(of: user, newRole: newRole)
        if let isActive { user.setIfChanged(\.isActive, isActive) }
        if let password {
            user.passwordHash = try await req.core.passwordHasher.hash(password)
            user.credentialsChangedAt = now
        }
        if user.hasChanges {
            user.updatedAt = now
            do {
                try await req.users.save(user, voidingTokens: voidsTokens)
            } catch where DatabaseFailure.isUniqueViolation(error) {
                throw APIError.emailTaken
            }
            // After the commit: this process's next request sees the change; other nodes within a second.
            req.readPathCaches.identities.invalidate(id)
            if voidsTokens { user.tokenVersion += 1 }
        }
        return try JSONResponse.make(UserResponse(user, petOwnerID: ownerID))
    }

    static func password(_ fields: FieldReader, required: Bool) throws -> String? {
        guard let raw = fields.object["password"] else {
            if required { throw APIError.badRequest("password is required") }
            return nil
        }
        guard case .string(let s) = raw else {
            if raw.isNull { throw APIError.badRequest("password cannot be null") }
            throw APIError.badRequest("password must be a string")
        }
        try PasswordRules.check(s, field: "password")
        return s
    }

    static func checkRoleLinks(role: UserRole, practiceID: UUID?, petOwnerID: UUID?) throws {
        if role.isMember && practiceID == nil {
            throw APIError.badRequest("practice_id is required for VET and VET_STAFF users")
        }
        if !role.isMember && practiceID != nil {
            throw APIError.badRequest("practice_id must be null for ADMIN and PET_OWNER users")
        }
        if role == .petOwner && petOwnerID == nil { throw APIError.badRequest("pet_owner_id is required for PET_OWNER users") }
        if role != .petOwner && petOwnerID != nil {
            throw APIError.badRequest("pet_owner_id is only allowed for PET_OWNER users")
        }
    }
}
