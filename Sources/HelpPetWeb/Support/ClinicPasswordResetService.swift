import HelpPetAPI
import Vapor
import WebConsole

/// The clinic console's forgotten-password pages: HelpPet users, `POST /auth/password-reset…`'s rules and messages.
struct ClinicPasswordResetService: ConsolePasswordResetService {
    func requestReset(email: String, request: Request) async throws -> ConsolePasswordResetRequestOutcome {
        switch try await ClinicPasswordReset.request(email: email, request: request) {
        case .sent(let message): .sent(message: message)
        case .throttled(let wait, let message): .throttled(retryAfter: wait, message: message)
        }
    }

    func confirmReset(token: String, newPassword: String, request: Request) async throws -> ConsolePasswordResetConfirmOutcome {
        switch try await ClinicPasswordReset.confirm(token: token, newPassword: newPassword, request: request) {
        case .changed(let message): .changed(message: message)
        case .refused(let message): .refused(message: message)
        }
    }
}
