import AppCore
import Fluent
import Foundation
import Mail
import Vapor

/// `POST`/`GET /practices/{id}/invites` and `DELETE /practices/{id}/invites/{invite_id}`: an ADMIN invites to any
/// practice, a VET to their own (another practice is a 404, as everywhere); other roles are refused (403). The
/// invitation email is enqueued in the transaction that creates the invitation (docs/invitations.md).
struct PracticeInvitesController: RouteCollection {
    func boot(routes: any RoutesBuilder) throws {
        let invites = routes.grouped("practices", ":practice_id", "invites")
        invites.post(use: create)
        invites.get(use: list)
        invites.delete(":invite_id", use: revoke)
    }

    @Sendable func create(req: Request) async throws -> Response {
        let (caller, practice) = try await Self.practice(of: req)
        guard practice.isActive else { throw APIError.conflict("This practice is not active") }
        let fields = try req.jsonObject()
        let email = try fields.email("email", required: true).valueIfPresent!.lowercased()
        guard MailAddress.isPlausible(email) else { throw fields.invalid("email", "must be a valid email address") }
        let days = try fields.optionalInteger("expiration_days", range: PracticeInvitation.dayRange)
            .valueIfPresent.map { Int($0) } ?? PracticeInvitation.defaultDays
        let now = req.now
        let sending = PracticeInvitationSending(
            db: req.db, mailFrom: req.application.core.config.mail.from, metrics: req.application.core.metrics)
        let row = try await sending.send(
            .init(practiceID: practice.id!, practiceName: practice.name, email: email, days: days, invitedBy: caller.id,
                  inviterName: try await req.users.callerUser(caller).fullName),
            now: now)
        return try JSONResponse.make(PracticeInviteResponse(row, now: now), status: .created)
    }

    @Sendable func list(req: Request) async throws -> Response {
        let (_, practice) = try await Self.practice(of: req)
        let now = req.now
        let rows = try await req.practiceInvites.list(practiceID: practice.id!)
        return try JSONResponse.make(rows.map { PracticeInviteResponse($0, now: now) })
    }

    @Sendable func revoke(req: Request) async throws -> Response {
        let (_, practice) = try await Self.practice(of: req)
        let id = try req.pathID("invite_id", .invite)
        let store = req.practiceInvites
        guard let row = try await store.find(id), row.practiceID == practice.id else { throw APIError.inviteNotFound }
        let revoked = try await store.revoke(id, now: req.now)
        if !revoked {
            let current = try await store.find(id) ?? row
            throw current.acceptedAt != nil
                ? APIError.conflict("This invitation has already been used")
                : APIError.conflict("This invitation has already been revoked")
        }
        return Response(status: .noContent)
    }

    /// The practice, checked for this caller: role first (403), then visibility (404).
    static func practice(of req: Request) async throws -> (Caller, Practice) {
        let caller = try req.caller
        guard PracticeInvitation.mayInvite(caller.role) else {
            throw APIError.forbidden("Administrator or veterinarian access required")
        }
        let id = try req.pathID("practice_id", .practice)
        return (caller, try await req.visibility.practice(id, for: caller))
    }
}
