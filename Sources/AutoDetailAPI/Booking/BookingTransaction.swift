import AppCore
import Fluent
import Foundation
import SQLKit

/// The only code path that inserts appointments (contract §3.9 rule 5, §6 rules 12–13): one serialised write
/// transaction that takes the booking lock first (SQLite: `BEGIN IMMEDIATE`; PostgreSQL: `SELECT … FOR UPDATE` on the
/// StudioSettings row, at READ COMMITTED), then re-validates the slot against the settings it read under the lock,
/// re-counts the overlapping appointments and inserts — or answers 400/409 and writes nothing. No storage or network
/// request is made while it is open.
///
/// Round trips inside (PostgreSQL): BEGIN, lock, [idempotency lookup], overlap read, insert … RETURNING, [one
/// idempotency upsert], COMMIT. The overlap read stays a statement of its own after the lock: at READ COMMITTED a
/// statement's snapshot is taken when it starts, so a read folded into the locking statement would not see the
/// appointment committed by the transaction it waited for (docs/read-path-autodetail.md).
enum BookingTransaction {
    static func book(_ draft: BookingDraft, admin: Bool, now: Date, on db: any Database) async throws -> BookingOutcome {
        try await db.writeTransaction { db in
            let settings = try await StudioSettingsStore(db: db).locked()
            if let claim = draft.idempotency, let earlier = try await IdempotencyRecords.find(claim, now: now, on: db) {
                return .replayed(earlier)
            }
            // Rule 12 (client) / rule 16 (admin), against the settings read under the lock.
            let grid = SlotGrid(settings: settings, durationMinutes: draft.durationMinutes)
            guard !draft.start.hasFraction,
                let slot = admin ? grid.adminBookableSlot(draft.start.date, now: now)
                    : grid.clientBookableSlot(draft.start.date, now: now)
            else { throw APIError.invalidTimeSlot }
            // Rules 8 and 13: re-count inside the lock; no bay free for the whole slot → 409.
            let bookings = BookingStore(db: db)
            let occupied = try await bookings.occupiedIntervals(from: slot.start, to: slot.end)
            guard Occupancy.remaining(start: slot.start, end: slot.end, capacity: settings.capacity, occupied: occupied) > 0
            else { throw APIError.slotFull }
            let row = try await bookings.insert(draft, id: UUID(), slot: slot, now: now)
            if let claim = draft.idempotency {
                try await IdempotencyRecords.save(claim, appointmentID: row.id, now: now, on: db)
            }
            return .created(row)
        }
    }
}
