import AppCore
import Foundation
import Vapor

/// `POST /practices`: an ADMIN creates any practice (PracticesController, unchanged); a PENDING user may create the
/// practice they work at when the server allows self-service practices (`HELPPET_SELF_SERVICE_PRACTICES`, default off),
/// and becomes its first member and its `admin_user_id` in the same transaction. Members and pet owners keep the
/// contract's 403. Registered outside PendingMembershipGate, which would refuse the pending user.
struct PracticeCreationController: RouteCollection {
    /// The app's create-practice form has no time zone; a self-service practice starts in UTC until an ADMIN sets its
    /// zone (`PUT /practices/{id}`). An ADMIN's create keeps requiring it.
    static let defaultSelfServiceZone = "UTC"
    static let disabled = APIError.forbidden(
        "Creating a practice requires an administrator: self-service practices are disabled on this server")

    let selfServiceEnabled: Bool

    func boot(routes: any RoutesBuilder) throws {
        routes.post("practices", use: create)
    }

    @Sendable func create(req: Request) async throws -> Response {
        let caller = try req.caller
        switch caller.role {
        case .admin: return try await PracticesController().create(req: req)
        case .pending: break
        case .vet, .vetStaff, .petOwner: throw APIError.administratorRequired
        }
        guard selfServiceEnabled else { throw Self.disabled }
        var object = try req.jsonObject().object
        if object["timezone"] == nil { object["timezone"] = .string(Self.defaultSelfServiceZone) }
        let input = try PracticeRequest(FieldReader(object), creating: true)

        let now = req.now
        let practice = Practice()
        practice.id = UUID()
        practice.name = input.name ?? ""
        practice.timezone = input.timezone ?? Self.defaultSelfServiceZone
        input.apply(to: practice)
        practice.isActive = input.isActive ?? true
        practice.adminUserID = caller.id
        practice.createdAt = now
        practice.updatedAt = now
        let role = try await req.users.callerUser(caller).requestedRole
        guard try await req.practices.createAndAdmitCreator(practice, creator: caller.id, role: role, now: now)
        else { throw APIError.conflict("You already belong to a practice") }
        // After the commit: the new member's next request in this process sees the membership at once.
        req.readPathCaches.identities.invalidate(caller.id)
        return try JSONResponse.make(PracticeResponse(practice), status: .created)
    }
}
