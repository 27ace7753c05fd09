import AppCore
import Fluent
import Foundation
import Vapor

/// A pending invitation as the console's invitation page lists it.
package struct ConsoleInviteRow: Sendable {
    package let id: UUID
    package let email: String
    package let expiresAt: Date
    package let createdAt: Date
}

/// The console's read of a practice's invitations (ADMIN, as the other admin pages). The page writes through the API
/// routes (`POST`/`DELETE /api/v1/practices/{id}/invites…`) with its session, as the other admin pages do.
package enum ClinicInvites {
    /// The practice's invitations that can still be accepted, newest first.
    package static func pending(practiceID: UUID, request: Request) async throws -> [ConsoleInviteRow] {
        try request.caller.requireAdmin()
        let now = request.now
        return try await PracticeInviteStore(db: request.db).list(practiceID: practiceID)
            .filter { $0.state(at: now) == .pending }
            .map { ConsoleInviteRow(id: $0.id, email: $0.email, expiresAt: $0.expiresAt, createdAt: $0.createdAt) }
    }
}
