import AppCore
import Fluent
import Foundation
import SQLKit

/// The SQL of device tokens.
struct DeviceTokenStore: Sendable {
    let db: any Database

    /// One statement decides concurrent registrations of the same token: the last one owns it.
    func register(token: String, type: String, user: UUID, now: Date) async throws {
        try await db.sql.raw("""
            INSERT INTO device_tokens (id, user_id, device_token, device_type, is_active, created_at, updated_at)
            VALUES (\(bind: UUID()), \(bind: user), \(bind: token), \(bind: type), \(bind: true), \(bind: now), \(bind: now))
            ON CONFLICT (device_token) DO UPDATE SET user_id = excluded.user_id, device_type = excluded.device_type,
                is_active = excluded.is_active, updated_at = excluded.updated_at
            """).run()
    }

    func find(token: String) async throws -> DeviceToken? {
        try await DeviceToken.query(on: db).filter(\.$deviceToken == token).first()
    }

    /// Removes the token if it is this user's; nothing otherwise.
    func delete(token: String, user: UUID) async throws {
        try await DeviceToken.query(on: db).filter(\.$deviceToken == token).filter(\.$userID == user).delete()
    }

    /// The user's devices, newest first.
    func list(user: UUID) async throws -> [DeviceToken] {
        try await DeviceToken.query(on: db).filter(\.$userID == user).sort(\.$createdAt, .descending).sort(\.$id).all()
    }
}
