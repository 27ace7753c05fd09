import AutoDetailAPI
import Vapor
import WebConsole

/// The studio console's sign-in: the AutoDetail admin, `POST /api/admin/login`'s rules and messages.
struct StudioSignIn: ConsoleSignInService {
    var cookieName: String { StudioSession.cookieName }

    func signIn(username: String, password: String, request: Request) async throws -> ConsoleSignInOutcome {
        switch try await StudioSession.signIn(username: username, password: password, request: request) {
        case .signedIn(let token): .signedIn(cookieToken: token)
        case .failed: .failed(message: "Invalid username or password")
        case .throttled(let wait): .throttled(retryAfter: wait, message: "Too many requests. Try again in \(wait) seconds.")
        }
    }

    func signOut(cookieToken: String, request: Request) async throws {
        try await StudioSession.signOut(cookieToken: cookieToken, request: request)
    }

    func signOutEverywhere(cookieToken: String, request: Request) async throws {
        try await StudioSession.signOutEverywhere(cookieToken: cookieToken, request: request)
    }
}
