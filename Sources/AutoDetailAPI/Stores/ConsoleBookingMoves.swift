import AppCore
import Fluent
import Foundation
import SQLKit

/// The console's one write on `ad_appointments` that the admin API has no route for: moving a booking to another
/// slot. Only `StudioReschedule` calls it, inside the booking transaction.
extension BookingStore {
    /// Moves a booking that still has `expected` status and still starts at `from` (a conditional write: of two
    /// concurrent moves only one applies). False when the row changed meanwhile.
    func move(_ id: UUID, expected: AppointmentStatus, from: Date, to slot: GridSlot, now: Date) async throws -> Bool {
        try await !db.sql.raw("""
            UPDATE ad_appointments SET start_at = \(bind: slot.start), end_at = \(bind: slot.end), updated_at = \(bind: now)
            WHERE id = \(bind: id) AND status = \(bind: expected.rawValue) AND start_at = \(bind: from)
            RETURNING status
            """).all().isEmpty
    }
}
