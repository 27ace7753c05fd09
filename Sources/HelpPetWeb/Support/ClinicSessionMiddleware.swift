import AppCore
import HelpPetAPI
import Vapor
import WebConsole

/// Signs in the console's pages: the session cookie's user (as `ClinicSession` says: live, same token version,
/// active) or the sign-in page.
struct ClinicSessionMiddleware: AsyncMiddleware {
    func respond(to request: Request, chainingTo next: any AsyncResponder) async throws -> Response {
        guard let token = request.cookies[ClinicSession.cookieName]?.string, !token.isEmpty,
            let user = try await ClinicSession.user(cookieToken: token, request: request)
        else { throw ConsoleSignInRequired() }
        request.setClinicUser(user)
        request.consoleSession = ConsoleSessionContext(
            sessionHash: user.sessionHash, displayName: user.displayName, roleLabel: Self.roleLabel(user.role),
            csrfToken: request.core.consoleCredentials.csrfToken(forSessionHash: user.sessionHash))
        return try await next.respond(to: request)
    }

    static func roleLabel(_ role: UserRole) -> String {
        switch role {
        case .admin: "Administrator"
        case .vet, .vetStaff: "Vet staff"
        case .petOwner: "Pet owner"
        case .pending: "Awaiting approval"
        }
    }
}

extension Request {
    private struct ClinicUserKey: StorageKey { typealias Value = ConsoleUser }

    var clinicUser: ConsoleUser {
        get throws {
            guard let user = storage[ClinicUserKey.self] else { throw ConsoleSignInRequired() }
            return user
        }
    }

    func setClinicUser(_ user: ConsoleUser) { storage[ClinicUserKey.self] = user }
}
