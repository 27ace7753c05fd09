import AppCore
import Foundation
import Vapor

/// Moving a booking to another slot from the console. The contract's admin API has no such route (§4.7.4 changes
/// status and notes only), so this is the console's one write that is not an API call; it runs the booking rules
/// exactly as an admin booking does (§6 rule 16: grid and fit, today … today + 365; rules 8 and 13: the capacity
/// re-counted under the booking lock, with the booking itself not counted), so two admins moving bookings into the
/// last free bay get one success and one `409 Time slot is no longer available`. The booking keeps its length, id,
/// owner, photos and price.
package enum StudioReschedule {
    package static func move(_ id: UUID, startIso: String?, request: Request) async throws {
        guard let startIso, !startIso.isEmpty else { throw APIError.badRequest("Missing required fields: startIso") }
        guard let start = ParsedInstant(startIso) else {
            throw APIError.invalidField("startIso", "must be an ISO-8601 date-time with Z or an offset")
        }
        let now = request.now
        try await request.db.writeTransaction { db in
            let settings = try await StudioSettingsStore(db: db).locked()
            let bookings = BookingStore(db: db)
            guard let booking = try await bookings.appointment(id, scope: .everything)?.appointment else {
                throw APIError.appointmentNotFound
            }
            guard booking.status == "new" || booking.status == "confirmed" else {
                throw APIError.conflict("Only new or confirmed bookings can be moved")
            }
            let minutes = Int(booking.endAt.timeIntervalSince(booking.startAt) / 60)
            let grid = SlotGrid(settings: settings, durationMinutes: minutes)
            guard !start.hasFraction, let slot = grid.adminBookableSlot(start.date, now: now) else {
                throw APIError.invalidTimeSlot
            }
            if slot.start == booking.startAt { return }
            let occupied = try await bookings.occupiedIntervals(from: slot.start, to: slot.end)
            let others = StudioReads.withoutOwn(occupied, booking)
            guard Occupancy.remaining(start: slot.start, end: slot.end, capacity: settings.capacity, occupied: others) > 0
            else { throw APIError.slotFull }
            guard try await bookings.move(id, expected: booking.statusValue, from: booking.startAt, to: slot, now: now) else {
                throw APIError.conflict("The booking was changed meanwhile. Reload the page and try again.")
            }
        }
    }
}
