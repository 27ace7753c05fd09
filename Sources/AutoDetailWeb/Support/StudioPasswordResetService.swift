import AutoDetailAPI
import Vapor
import WebConsole

/// The studio console's forgotten-password pages: the admin account, reset through the studio settings' address.
struct StudioPasswordResetService: ConsolePasswordResetService {
    func requestReset(email: String, request: Request) async throws -> ConsolePasswordResetRequestOutcome {
        switch try await StudioPasswordReset.request(email: email, request: request) {
        case .sent(let message): .sent(message: message)
        case .throttled(let wait, let message): .throttled(retryAfter: wait, message: message)
        }
    }

    func confirmReset(token: String, newPassword: String, request: Request) async throws -> ConsolePasswordResetConfirmOutcome {
        switch try await StudioPasswordReset.confirm(token: token, newPassword: newPassword, request: request) {
        case .changed(let message): .changed(message: message)
        case .refused(let message): .refused(message: message)
        }
    }
}
