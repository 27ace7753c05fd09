import AppCore
import Fluent
import Foundation
import SQLKit
import MailOutbox

/// One outbox message as the delivery log shows it: an email (`mail_outbox`) or a push (`notification_outbox`).
package struct MailDeliveryRow: Decodable, Sendable, Equatable {
    /// `email` or `push`.
    package let channel: String
    package let kind: String
    package let recipient: String
    package let status: String
    package let attempts: Int
    package let lastError: String?
    package let createdAt: Date
    package let sentAt: Date?
    package let appointmentID: UUID?

    enum CodingKeys: String, CodingKey {
        case channel, kind, recipient, status, attempts
        case lastError = "last_error", createdAt = "created_at", sentAt = "sent_at", appointmentID = "appointment_id"
    }
}

/// The delivery log's reads: what was queued, sent or failed, and why.
extension MailOutboxStore {
    private static let logColumns = "'email' AS channel, m.kind, m.recipient, m.status, m.attempts, m.last_error, m.created_at, m.sent_at, m.appointment_id"

    /// Every message about one appointment (its emails, its reminders, a discharge email of its visits), oldest first.
    package func deliveries(ofAppointment id: UUID) async throws -> [MailDeliveryRow] {
        try await db.sql.raw("""
            SELECT \(unsafeRaw: Self.logColumns) FROM mail_outbox m
            WHERE m.appointment_id = \(bind: id) ORDER BY m.created_at, COALESCE(m.ics_sequence, -1), m.id
            """).all(decoding: MailDeliveryRow.self)
    }

    /// The latest messages about a practice's appointments, newest first.
    package func deliveries(ofPractice id: UUID, limit: Int) async throws -> [MailDeliveryRow] {
        try await db.sql.raw("""
            SELECT \(unsafeRaw: Self.logColumns) FROM mail_outbox m
            JOIN appointments a ON a.id = m.appointment_id
            WHERE a.practice_id = \(bind: id)
            ORDER BY m.created_at DESC, COALESCE(m.ics_sequence, -1) DESC, m.id DESC LIMIT \(bind: limit)
            """).all(decoding: MailDeliveryRow.self)
    }
}
