import AppCore
import Fluent
import Foundation
import SQLKit

/// The vet reminders' statements on `notification_outbox` (M0132).
extension PushOutboxStore {
    /// Appointments whose vet reminder is due at `now` (start within the lead time, still ahead), still scheduled or
    /// confirmed, with an active assigned vet who has an active device, and no reminder for this start yet.
    package func dueVetReminders(now: Date, lead: TimeInterval, limit: Int = 500) async throws -> [(id: UUID, start: Date)] {
        let t = SchemaTypes(db.engine)
        return try await db.sql.raw("""
            SELECT a.id, a.appointment_date
            FROM appointments a
            JOIN users u ON u.id = a.assigned_vet_user_id AND u.is_active = \(unsafeRaw: t.true)
            WHERE a.status IN ('scheduled', 'confirmed')
              AND a.appointment_date > \(bind: now) AND a.appointment_date <= \(bind: now.addingTimeInterval(lead))
              AND EXISTS (SELECT 1 FROM device_tokens d
                          WHERE d.user_id = a.assigned_vet_user_id AND d.is_active = \(unsafeRaw: t.true))
              AND NOT EXISTS (SELECT 1 FROM notification_outbox n
                              WHERE n.appointment_id = a.id AND n.reminder_for = a.appointment_date)
            ORDER BY a.appointment_date, a.id
            LIMIT \(unsafeRaw: String(limit))
            """).all().map { (try $0.decode(column: "id", as: UUID.self), try $0.decode(column: "appointment_date", as: Date.self)) }
    }

    /// Inserts a reminder through the model, so the payload is stored as every other row's on both engines. A
    /// second reminder of the same start violates the unique index: the caller's transaction then fails, and
    /// `VetPushReminders` counts that as "already there".
    package func enqueueReminder(
        for userID: UUID, appointmentID: UUID, start: Date, payload: [String: JSONValue], now: Date
    ) async throws {
        let entry = NotificationOutboxEntry()
        entry.id = UUID()
        entry.userID = userID
        entry.kind = "appointment_reminder"
        entry.payload = payload
        entry.createdAt = now
        entry.appointmentID = appointmentID
        entry.reminderFor = start
        try await entry.create(on: db)
    }

    /// A queued reminder of a start that no longer holds (moved, cancelled, closed) is never sent.
    package func withdrawStaleReminders(ofAppointment id: UUID, currentStart: Date?, now: Date) async throws {
        if let currentStart {
            try await db.sql.raw("""
                UPDATE notification_outbox SET status = 'skipped', last_error = 'not sent: the appointment was moved',
                    updated_at = \(bind: now)
                WHERE appointment_id = \(bind: id) AND kind = 'appointment_reminder' AND status = 'queued'
                  AND reminder_for <> \(bind: currentStart)
                """).run()
        } else {
            try await db.sql.raw("""
                UPDATE notification_outbox SET status = 'skipped',
                    last_error = 'not sent: the appointment was cancelled or closed', updated_at = \(bind: now)
                WHERE appointment_id = \(bind: id) AND kind = 'appointment_reminder' AND status = 'queued'
                """).run()
        }
    }
}
