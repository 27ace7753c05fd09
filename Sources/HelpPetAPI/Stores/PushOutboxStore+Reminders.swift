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

    /// A queued reminder of a start that no longer holds is never sent: with `currentStart`, reminders of any other
    /// start (a move); without, all of them (cancelled or closed).
    package func withdrawStaleReminders(ofAppointment id: UUID, currentStart: Date?, now: Date) async throws {
        let reason = currentStart == nil
            ? "not sent: the appointment was cancelled or closed" : "not sent: the appointment was moved"
        try await db.sql.raw("""
            UPDATE notification_outbox SET status = 'skipped', last_error = \(bind: reason), updated_at = \(bind: now)
            WHERE appointment_id = \(bind: id) AND kind = 'appointment_reminder' AND status = 'queued'
              AND (\(bind: currentStart) IS NULL OR reminder_for <> \(bind: currentStart))
            """).run()
    }
}
