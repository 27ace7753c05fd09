import AppCore
import Foundation
import Vapor

/// `POST /auth/signup` (public): the iPhone app's onboarding creates its own account, `{username, password, email,
/// full_name, role}`. The account is active but PENDING: it belongs to no practice and sees no practice's data until an
/// ADMIN admits it (docs/iphone-app-compatibility.md, "Onboarding"). The answer is the user plus a bearer token,
/// because the app's next call (`PUT /auth/me/practice`) is authenticated with the `access_token` it keeps from here.
struct SignupController: RouteCollection {
    /// 10 signups per hour per client IP, successful or not (a failed one still costs a bcrypt hash or reveals
    /// whether a name is taken). Counted in the shared attempt ledger like the practice directory.
    static let perIP = AttemptRule(name: "helppet.signup", limit: 10, window: 3600)
    /// The member roles a signup may ask for. ADMIN is never self-assigned; PET_OWNER accounts are made by a practice
    /// for its clients (they must be linked to a pet-owner record).
    static let requestableRoles: [UserRole] = [.vetStaff, .vet]

    let ledger: any AttemptLedger

    func boot(routes: any RoutesBuilder) throws {
        routes.post("auth", "signup", use: signup)
    }

    @Sendable func signup(req: Request) async throws -> Response {
        let key = Self.perIP.key(req.core.clientAddress.ip(of: req))
        if case .refused(let wait) = try await ledger.reserve([key], hold: false, now: req.core.clock.now(), on: req.db) {
            throw APIError.tooManyRequests("Too many signups from this address. Try again in \(wait) seconds.", retryAfter: wait)
        }
        let fields = try req.jsonObject()
        let username = try fields.requiredString("username", min: 3, max: 50)
        // The contract's username characters, plus `@` and `+`: the app's newer onboarding signs up with the email
        // address as the username.
        guard username.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || ".-_@+".contains($0)) }) else {
            throw APIError.badRequest("username may only contain letters, digits, '.', '_', '-', '@' and '+'")
        }
        let password = try UsersController.password(fields, required: true)!
        let email = try fields.email("email", required: true).valueIfPresent!
        let fullName = try fields.requiredString("full_name", max: 100)
        let role = try Self.requestedRole(fields)
        // The app's survey variant sends the practice it picked with the signup: the same as a later join request.
        let practiceID = try fields.optionalUUID("practice_id", kind: .practice).valueIfPresent
        if let practiceID { _ = try await PracticeMembershipController.joinablePractice(practiceID, on: req.db) }

        try await req.users.requireFree(username: username, email: email)
        let hash = try await req.core.passwordHasher.hash(password)
        let now = req.now
        let user = User(
            username: username, email: email, fullName: fullName, role: .pending, practiceID: nil, passwordHash: hash,
            isActive: true, now: now)
        user.requestedRoleValue = role.rawValue
        user.requestedPracticeID = practiceID
        do {
            try await req.users.insert(user)
        } catch where DatabaseFailure.isUniqueViolation(error) {
            // A concurrent signup took the name or the address between the check and the insert.
            try await req.users.requireFree(username: username, email: email)
            throw APIError.usernameTaken
        }
        let token = try await req.core.tokens.issue(subject: user.id!.lowercased, version: 0, now: req.core.clock.now())
        return try JSONResponse.make(
            SignupResponse(user: UserResponse(user, petOwnerID: nil), login: LoginResponse(
                accessToken: token, tokenType: "bearer", expiresIn: TokenService.lifetimeSeconds)),
            status: .created)
    }

    /// `role` is optional (VET_STAFF, what the app sends); only VET and VET_STAFF may be asked for.
    static func requestedRole(_ fields: FieldReader) throws -> UserRole {
        switch fields.object["role"] {
        case .none: return .vetStaff
        case .string(let raw)?:
            if let role = UserRole(rawValue: raw), requestableRoles.contains(role) { return role }
            throw APIError.badRequest("Invalid role: '\(raw)'. Allowed: VET_STAFF, VET (a signup cannot ask for ADMIN or PET_OWNER)")
        case .null?: throw APIError.badRequest("role cannot be null")
        default: throw APIError.badRequest("role must be a string")
        }
    }
}
