import AppCore
import Fluent
import Foundation
import SQLKit

/// The rows a forgotten password needs: who an address belongs to, and the new password itself.
struct PasswordAccount: Decodable, Sendable {
    let id: UUID
    let email: String
    let username: String
    let fullName: String

    enum CodingKeys: String, CodingKey {
        case id, email, username
        case fullName = "full_name"
    }
}

extension UserStore {
    /// The active user whose email is `email` (emails are unique case-insensitively), or nil.
    func activeAccount(email: String) async throws -> PasswordAccount? {
        try await db.sql.raw("""
            SELECT id, email, username, full_name FROM users
            WHERE lower(email) = \(bind: email.lowercased()) AND is_active = \(bind: true)
            """).first(decoding: PasswordAccount.self)
    }

    func activeAccount(id: UUID) async throws -> PasswordAccount? {
        try await db.sql.raw("""
            SELECT id, email, username, full_name FROM users WHERE id = \(bind: id) AND is_active = \(bind: true)
            """).first(decoding: PasswordAccount.self)
    }

    /// Sets a new password hash and moves the token version on, so every token and console session minted before
    /// this commit is void (contract §2.1).
    func replacePassword(_ id: UUID, hash: String, now: Date) async throws {
        try await db.sql.raw("""
            UPDATE users SET password_hash = \(bind: hash), credentials_changed_at = \(bind: now),
                updated_at = \(bind: now), token_version = token_version + 1
            WHERE id = \(bind: id)
            """).run()
    }
}
