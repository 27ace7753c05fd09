import AppCore
import Vapor

/// Refuses every route behind it to a PENDING caller (a signed-up user no ADMIN has admitted to a practice yet), after
/// BearerAuthMiddleware. Refusing here, before any controller runs, is what guarantees that a pending user sees
/// nothing of any practice: several controllers narrow their queries only `if caller.isMember` and would otherwise
/// treat a caller that is neither a member nor a pet owner like an ADMIN. The few routes a pending user needs
/// (`GET /auth/me`, `PUT /auth/me/practice`, `POST /practices`, the device tokens) are registered outside this gate.
struct PendingMembershipGate: AsyncMiddleware {
    static let refusal = APIError.forbidden(
        "Your account is waiting for an administrator to approve your practice membership")

    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        if try request.caller.role == .pending { throw Self.refusal }
        return try await next.respond(to: request)
    }
}
