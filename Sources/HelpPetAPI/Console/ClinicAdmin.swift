import AppCore
import Fluent
import Foundation
import Vapor

package struct ConsoleUserRow: Sendable {
    package let id: UUID
    package let username: String
    package let fullName: String
    package let email: String
    package let role: UserRole
    package let practiceID: UUID?
    package let isActive: Bool
    package let requestedPracticeID: UUID?
}

package struct ConsolePracticeRow: Sendable {
    package let id: UUID
    package let name: String
    package let timezone: String
    package let phone: String?
    package let email: String?
    package let address: String?
    package let isActive: Bool
    /// Whether a recording needs the owner's agreement confirmed first.
    package let recordingConsentRequired: Bool
    /// Which emails the practice sends (docs/notifications.md, "Practice settings").
    package let appointmentReminderHours: Int
    package let appointmentEmailsEnabled: Bool
    package let dischargeEmailsEnabled: Bool
}

/// The ADMIN pages' reads (users and practices); the API's rule applies: administrators only.
package enum ClinicAdmin {
    package static func users(request: Request) async throws -> [ConsoleUserRow] {
        try request.caller.requireAdmin()
        return try await OwnerDirectoryStore(db: request.db).users().map {
            ConsoleUserRow(id: $0.id, username: $0.username, fullName: $0.fullName, email: $0.email,
                           role: UserRole(rawValue: $0.role) ?? .pending,
                           practiceID: $0.practiceID, isActive: $0.isActive, requestedPracticeID: $0.requestedPracticeID)
        }
    }

    /// Whether a signed-up user without a practice may create one (`HELPPET_SELF_SERVICE_PRACTICES`), shown to
    /// administrators because the app's "create your practice" answers 403 while it is off.
    package static func selfServicePracticesEnabled(request: Request) throws -> Bool {
        try request.caller.requireAdmin()
        return request.core.config.selfServicePractices
    }

    package static func practices(request: Request) async throws -> [ConsolePracticeRow] {
        try request.caller.requireAdmin()
        return try await Practice.query(on: request.db).sort(\.$name).sort(\.$id).all().map {
            ConsolePracticeRow(id: $0.id!, name: $0.name, timezone: $0.timezone, phone: $0.phone, email: $0.email,
                               address: $0.address, isActive: $0.isActive,
                               recordingConsentRequired: $0.recordingConsentRequired,
                               appointmentReminderHours: $0.appointmentReminderHours,
                               appointmentEmailsEnabled: $0.appointmentEmailsEnabled,
                               dischargeEmailsEnabled: $0.dischargeEmailsEnabled)
        }
    }

    /// Every pet owner without a user (for creating a PET_OWNER login), by name.
    package static func unlinkedOwners(request: Request) async throws -> [(id: UUID, name: String)] {
        try request.caller.requireAdmin()
        return try await PetOwner.query(on: request.db).filter(\.$userID == nil).sort(\.$lastName).sort(\.$firstName)
            .range(0..<500).all().map { ($0.id!, "\($0.firstName) \($0.lastName)") }
    }
}
