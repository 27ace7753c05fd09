/// What a product's forgotten-password flow answers its console: the product decides and words it, the console's
/// shared pages show it.
public enum PasswordResetRequested: Sendable {
    /// The one answer whether or not the address has an account.
    case sent(message: String)
    case throttled(retryAfter: Int, message: String)
}

public enum PasswordResetConfirmed: Sendable {
    case changed(message: String)
    /// The link is unusable, or the password breaks the product's rules: the product's own message.
    case refused(message: String)
}
