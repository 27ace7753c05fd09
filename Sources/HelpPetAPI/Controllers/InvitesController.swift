import AppCore
import Fluent
import Foundation
import Vapor

/// `GET /invites/{id}` (public: the practice's name and public details, the invitation's state; never the code or the
/// address) and `POST /invites/{id}/accept {invite_code}` (signed in, PENDING users too): the signed-in user whose
/// email is the invited address joins the practice as VET_STAFF.
struct InvitesController: RouteCollection {
    /// Wrong codes per invitation: 5 in 15 minutes, then 15 minutes of refusals. Per user: 20 per hour, so one
    /// account cannot try many invitations either. Counted in the shared attempt ledger (shared by all API nodes).
    static let perInvite = AttemptRule(name: "helppet.invite.accept", limit: 5, window: 900, lockout: 900)
    static let perUser = AttemptRule(name: "helppet.invite.accept.user", limit: 20, window: 3600)

    let ledger: any AttemptLedger

    /// The public read, registered without authentication.
    struct Public: RouteCollection {
        func boot(routes: any RoutesBuilder) throws {
            routes.get("invites", ":invite_id", use: InvitesController.show)
        }
    }

    func boot(routes: any RoutesBuilder) throws {
        routes.post("invites", ":invite_id", "accept", use: accept)
    }

    @Sendable static func show(req: Request) async throws -> Response {
        let id = try req.pathID("invite_id", .invite)
        guard let row = try await req.practiceInvites.find(id),
            let practice = try await req.practices.practice(row.practiceID)
        else { throw APIError.inviteNotFound }
        return try JSONResponse.make(
            PublicInviteResponse(
                id: row.id, practiceID: row.practiceID, practiceName: practice.name, practiceAddress: practice.address,
                practicePhone: practice.phone, role: PracticeInvitation.role.rawValue, status: row.state(at: req.now).rawValue,
                expiresAt: row.expiresAt))
    }

    @Sendable func accept(req: Request) async throws -> Response {
        let caller = try req.caller
        let id = try req.pathID("invite_id", .invite)
        let fields = try req.jsonObject()
        let code = try fields.requiredString("invite_code", trim: false, max: 64)
        let now = req.now
        let keys = [Self.perInvite.key(id.lowercased), Self.perUser.key(caller.id.lowercased)]
        let ticket: AttemptTicket
        switch try await ledger.reserve(keys, hold: true, now: req.core.clock.now(), on: req.db) {
        case .refused(let wait):
            throw APIError.tooManyRequests(
                "Too many attempts to accept this invitation. Try again in \(wait) seconds.", retryAfter: wait)
        case .granted(let granted): ticket = granted
        }
        do {
            let user = try await checkedAcceptance(of: id, code: code, caller: caller, now: now, on: req.db)
            try await ledger.release(ticket, now: req.core.clock.now(), on: req.db)
            // After the commit: this process's next request sees the membership; other nodes within a second.
            req.readPathCaches.identities.invalidate(caller.id)
            return try JSONResponse.make(UserResponse(user, petOwnerID: nil))
        } catch let wrong as WrongCode {
            try await ledger.settle(ticket, counting: keys, clearing: [], now: req.core.clock.now(), on: req.db)
            throw wrong.error
        } catch {
            try? await ledger.release(ticket, now: req.core.clock.now(), on: req.db)
            throw error
        }
    }

    private struct WrongCode: Error { let error = APIError.forbidden("Invalid invitation code") }

    /// Checks the invitation and makes the caller a member in one transaction; returns the updated user.
    private func checkedAcceptance(
        of id: UUID, code: String, caller: Caller, now: Date, on db: any Database
    ) async throws -> User {
        let store = PracticeInviteStore(db: db)
        guard let row = try await store.find(id) else { throw APIError.inviteNotFound }
        if let refusal = PracticeInvitation.refusal(row.state(at: now)) { throw refusal }
        let user = try await UserStore(db: db).callerUser(caller)
        guard user.email.lowercased() == row.email else {
            throw APIError.forbidden("This invitation was sent to another email address")
        }
        guard PracticeInvitation.codeMatches(code, storedHash: row.codeHash) else { throw WrongCode() }
        if let refusal = PracticeInvitation.acceptanceRefusal(
            role: user.role, practiceID: user.practiceID, invitedTo: row.practiceID)
        {
            throw refusal
        }
        switch try await store.accept(
            id, by: caller.id, role: PracticeInvitation.role, practiceID: row.practiceID, now: now)
        {
        case .accepted: break
        case .inviteNoLongerOpen(let current):
            throw PracticeInvitation.refusal((current ?? row).state(at: now))
                ?? APIError.conflict("This invitation has already been used")
        case .userNoLongerPending:
            throw APIError.conflict("You already belong to a practice; an administrator can move you to another one")
        }
        return try await UserStore(db: db).callerUser(caller)
    }
}
