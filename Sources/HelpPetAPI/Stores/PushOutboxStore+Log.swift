import AppCore
import Fluent
import Foundation
import SQLKit

/// The delivery log's reads of `notification_outbox`: the pushes about an appointment (M0132 keeps its id on the
/// row), addressed by the vet's name since a push goes to every device of that vet.
extension PushOutboxStore {
    private static let logColumns = """
        'push' AS channel, n.kind, u.full_name AS recipient, n.status, n.attempts, n.last_error, n.created_at,
        n.sent_at, n.appointment_id
        """

    /// Every push about one appointment, oldest first.
    package func deliveries(ofAppointment id: UUID) async throws -> [MailDeliveryRow] {
        try await db.sql.raw("""
            SELECT \(unsafeRaw: Self.logColumns) FROM notification_outbox n JOIN users u ON u.id = n.user_id
            WHERE n.appointment_id = \(bind: id) ORDER BY n.created_at, n.id
            """).all(decoding: MailDeliveryRow.self)
    }

    /// The latest pushes about a practice's appointments, newest first.
    package func deliveries(ofPractice id: UUID, limit: Int) async throws -> [MailDeliveryRow] {
        try await db.sql.raw("""
            SELECT \(unsafeRaw: Self.logColumns) FROM notification_outbox n JOIN users u ON u.id = n.user_id
            JOIN appointments a ON a.id = n.appointment_id
            WHERE a.practice_id = \(bind: id)
            ORDER BY n.created_at DESC, n.id DESC LIMIT \(bind: limit)
            """).all(decoding: MailDeliveryRow.self)
    }
}
