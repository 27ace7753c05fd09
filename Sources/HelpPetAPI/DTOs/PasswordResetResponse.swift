/// The answer to both password reset calls: one sentence, the same for every address.
struct PasswordResetResponse: Codable, Sendable {
    let message: String
}
