import AppCore
import Foundation
import Vapor
import MailOutbox

/// Where the server's email and pushes go, as the console shows it to an administrator.
package struct ConsoleNotificationStatus: Sendable {
    /// "SMTP smtp://…@host:587 (STARTTLS)" or "files under …/mail".
    package let emailDestination: String
    /// Whether email is written as files (the embedded default) rather than sent.
    package let emailAsFiles: Bool
    /// The APNs base URL and topic when push is on; nil when it is off.
    package let pushDestination: String?
}

/// The console's reads of the notification outbox: the server's transports and the delivery log.
package enum ClinicNotifications {
    package static func status(request: Request) throws -> ConsoleNotificationStatus {
        try request.caller.requireAdmin()
        let push = request.application.pushConfiguration
        return ConsoleNotificationStatus(
            emailDestination: request.application.mailTransport.destination,
            emailAsFiles: request.core.config.mail.smtpURL == nil,
            pushDestination: push.map { "APNs at \($0.baseURL), topic \($0.topic)" })
    }

    /// The emails and pushes about one appointment, oldest first, for staff who may see it (404 like the API
    /// otherwise).
    package static func appointmentDeliveries(_ id: UUID, request: Request) async throws -> [MailDeliveryRow] {
        let caller = try request.caller
        guard caller.role.isStaff else { throw APIError.appointmentNotFound }
        _ = try await VisibilityStore(db: request.db).appointment(id, for: caller)
        let emails = try await MailOutboxStore(db: request.db).deliveries(ofAppointment: id)
        let pushes = try await PushOutboxStore(db: request.db).deliveries(ofAppointment: id)
        return merged(emails, pushes, newestFirst: false)
    }

    /// The latest 20 emails and pushes about a practice's appointments, newest first (administrators).
    package static func practiceDeliveries(_ id: UUID, request: Request) async throws -> [MailDeliveryRow] {
        try request.caller.requireAdmin()
        let emails = try await MailOutboxStore(db: request.db).deliveries(ofPractice: id, limit: 20)
        let pushes = try await PushOutboxStore(db: request.db).deliveries(ofPractice: id, limit: 20)
        return Array(merged(emails, pushes, newestFirst: true).prefix(20))
    }

    /// Both channels in time order; each list is already in that order, and a stable sort keeps it within a channel.
    static func merged(_ emails: [MailDeliveryRow], _ pushes: [MailDeliveryRow], newestFirst: Bool) -> [MailDeliveryRow] {
        (emails + pushes).enumerated().sorted { a, b in
            if a.element.createdAt != b.element.createdAt {
                return newestFirst ? a.element.createdAt > b.element.createdAt : a.element.createdAt < b.element.createdAt
            }
            return a.offset < b.offset
        }.map(\.element)
    }
}
