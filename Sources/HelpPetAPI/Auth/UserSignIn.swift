import AppCore
import Foundation
import Vapor

/// The password check that `POST /auth/token` and the clinic console's sign-in share (contract §2.3): the login
/// throttle around a bcrypt check of an active user. Failures in either place count against the same limits.
enum UserSignIn {
    static func check(username: String, password: String, request: Request) async throws -> LoginThrottle.Outcome<User> {
        let throttle = HelpPetModule.loginThrottle(request.application)
        let ip = request.core.clientAddress.ip(of: request)
        // The version read here, before the password is verified, goes into the credential: a password change that
        // commits while bcrypt runs increments it, so the credential is void from the start.
        let outcome = try await throttle.attempt(username: username, ip: ip, on: request.db) { () -> User? in
            let user = try await UserStore(db: request.db).byUsername(username)
            let matches = try await request.core.passwordHasher.verify(password, against: user?.passwordHash)
            guard let user, matches, user.isActive else { return nil }
            return user
        }
        switch outcome {
        case .refused: request.core.metrics.counter("helppet_login_throttled_total").increment()
        case .failed: request.core.metrics.counter("helppet_login_failures_total").increment()
        case .succeeded: break
        }
        return outcome
    }
}
