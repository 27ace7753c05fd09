import AppCore
import Foundation
import SQLKit
import VaporTesting

/// Users created directly in the database, for tests that run without the demo data.
enum TestUsers {
    /// Inserts an active ADMIN user and returns a token for it.
    static func insertAdmin(_ app: Application, username: String = "root") async throws -> String {
        let id = UUID()
        let now = WireTime.truncated(Date())
        let hash = try await app.core.passwordHasher.hash("root-password")
        try await app.db.sql.raw("""
            INSERT INTO users (id, username, email, full_name, role, practice_id, password_hash, is_active,
                               credentials_changed_at, created_at, updated_at)
            VALUES (\(bind: id), \(bind: username), \(bind: username + "@example.com"), \(bind: "Root"), 'ADMIN', NULL,
                    \(bind: hash), \(bind: true), \(bind: Date(timeIntervalSince1970: 0)), \(bind: now), \(bind: now))
            """).run()
        return try await app.token(for: id)
    }
}
