import HelpPetAPI
import Vapor
import WebConsole

/// The clinic console's sign-in: HelpPet users, `POST /auth/token`'s rules and messages.
struct ClinicSignIn: ConsoleSignInService {
    var cookieName: String { ClinicSession.cookieName }

    func signIn(username: String, password: String, request: Request) async throws -> ConsoleSignInOutcome {
        switch try await ClinicSession.signIn(username: username, password: password, request: request) {
        case .signedIn(let token): .signedIn(cookieToken: token)
        case .failed: .failed(message: "Incorrect username or password")
        case .throttled(let wait):
            .throttled(retryAfter: wait, message: "Too many failed login attempts. Try again in \(wait) seconds.")
        }
    }

    func signOut(cookieToken: String, request: Request) async throws {
        try await ClinicSession.signOut(cookieToken: cookieToken, request: request)
    }

    func signOutEverywhere(cookieToken: String, request: Request) async throws {
        try await ClinicSession.signOutEverywhere(cookieToken: cookieToken, request: request)
    }
}
