import AppCore
import Fluent

extension SingleUseLinkStore {
    /// `ad_admin_password_resets` (M0213): the studio admin's password reset links, kept as the SHA-256 of their token.
    static func adminPasswordResets(_ db: any Database) -> SingleUseLinkStore {
        SingleUseLinkStore(db: db, table: "ad_admin_password_resets", ownerColumn: "admin_user_id")
    }
}
