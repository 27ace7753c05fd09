import AppCore
import AutoDetailAPI
import Vapor
import WebConsole

/// The studio console's forgotten-password pages: the admin account, reset through the studio settings' address.
struct StudioPasswordResetService: ConsolePasswordResetService {
    func requestReset(email: String, request: Request) async throws -> PasswordResetRequested {
        try await StudioPasswordReset.request(email: email, request: request)
    }

    func confirmReset(token: String, newPassword: String, request: Request) async throws -> PasswordResetConfirmed {
        try await StudioPasswordReset.confirm(token: token, newPassword: newPassword, request: request)
    }
}
