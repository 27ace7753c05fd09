import AppCore
import Foundation

/// The new user and their first token, side by side in one object: the app reads `access_token` at the top level.
struct SignupResponse: Encodable, Sendable {
    let user: UserResponse
    let login: LoginResponse

    func encode(to encoder: any Encoder) throws {
        try user.encode(to: encoder)
        try login.encode(to: encoder)
    }
}
