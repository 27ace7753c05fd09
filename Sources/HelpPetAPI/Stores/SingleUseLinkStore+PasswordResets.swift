import AppCore
import Fluent

extension SingleUseLinkStore {
    /// `password_resets` (M0131): a user's password reset links, kept as the SHA-256 of their token.
    static func passwordResets(_ db: any Database) -> SingleUseLinkStore {
        SingleUseLinkStore(db: db, table: "password_resets", ownerColumn: "user_id")
    }
}
