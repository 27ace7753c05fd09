import AppCore
import AutoDetailAPI
import Vapor
import WebConsole

/// Signs in the console's pages: the cookie's admin session as `StudioSession` says (live, not revoked, same token
/// version), or the sign-in page.
struct StudioSessionMiddleware: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        guard let token = ConsoleSessionCookie(name: StudioSession.cookieName).token(in: request),
            let admin = try await StudioSession.admin(cookieToken: token, request: request)
        else { throw ConsoleSignInRequired() }
        request.consoleSession = ConsoleSessionContext(
            sessionHash: admin.sessionHash, displayName: admin.username, roleLabel: "Studio admin",
            csrfToken: request.core.consoleCredentials.csrfToken(forSessionHash: admin.sessionHash))
        return try await next.respond(to: request)
    }
}
