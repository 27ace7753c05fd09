import AppCore
import HelpPetAPI
import Vapor
import WebConsole

/// The clinic console's forgotten-password pages: HelpPet users, `POST /auth/password-reset…`'s rules and messages.
struct ClinicPasswordResetService: ConsolePasswordResetService {
    func requestReset(email: String, request: Request) async throws -> PasswordResetRequested {
        try await ClinicPasswordReset.request(email: email, request: request)
    }

    func confirmReset(token: String, newPassword: String, request: Request) async throws -> PasswordResetConfirmed {
        try await ClinicPasswordReset.confirm(token: token, newPassword: newPassword, request: request)
    }
}
