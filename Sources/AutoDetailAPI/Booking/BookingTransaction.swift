import AppCore
import Fluent
import Foundation
import SQLKit

/// The only code path that inserts appointments (contract §3.9 rule 5, §6 rules 12–13): one serialised write
/// transaction that takes the booking lock first (SQLite: `BEGIN IMMEDIATE`; PostgreSQL: `SELECT … FOR UPDATE` on the
/// StudioSettings row, at READ COMMITTED), then re-validates the slot against the settings it read under the lock,
/// re-counts the overlapping appointments and inserts — or answers 400/409 and writes nothing. No storage or network
/// request is made while it is open.
enum BookingTransaction {
    static func book(_ draft: BookingDraft, admin: Bool, now: Date, on db: any Database) async throws -> BookingOutcome {
        try await db.writeTransaction { db in
            let settings = try await lockSettings(on: db)
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
            let occupied = try await occupiedIntervals(from: slot.start, to: slot.end, on: db)
            guard Occupancy.remaining(start: slot.start, end: slot.end, capacity: settings.capacity, occupied: occupied) > 0
            else { throw APIError.slotFull }
            let id = UUID()
            try await insert(draft, id: id, slot: slot, now: now, on: db)
            if let claim = draft.idempotency {
                try await IdempotencyRecords.insert(claim, appointmentID: id, now: now, on: db)
            }
            return .created(id)
        }
    }

    /// The booking lock and the settings it protects. On PostgreSQL the row lock is the first statement of the
    /// transaction; on SQLite the transaction already holds the database's write lock.
    static func lockSettings(on db: any Database) async throws -> StudioSettings {
        let lock = db.engine == .postgres ? " FOR UPDATE" : ""
        guard let row = try await db.sql.raw("""
            SELECT studio_name, timezone, working_hours, slot_step_minutes, capacity, booking_window_days,
                lead_time_minutes, updated_at
            FROM ad_studio_settings WHERE id = 1\(unsafeRaw: lock)
            """).first()
        else { throw APIError(.internalServerError, "Internal server error") }
        return StudioSettings(
            studioName: try row.decode(column: "studio_name", as: String.self),
            timezone: try row.decode(column: "timezone", as: String.self),
            hours: WorkingHoursCoding.decode(try row.decode(column: "working_hours", as: String.self)),
            slotStepMinutes: try row.decode(column: "slot_step_minutes", as: Int.self),
            capacity: try row.decode(column: "capacity", as: Int.self),
            bookingWindowDays: try row.decode(column: "booking_window_days", as: Int.self),
            leadTimeMinutes: try row.decode(column: "lead_time_minutes", as: Int.self),
            updatedAt: try row.decode(column: "updated_at", as: Date.self))
    }

    /// `[start, end)` of every non-cancelled appointment overlapping `[from, to)` (rule 7).
    static func occupiedIntervals(from: Date, to: Date, on db: any Database) async throws -> [Range<Date>] {
        let rows = try await db.sql.raw("""
            SELECT start_at, end_at FROM ad_appointments
            WHERE status <> 'cancelled' AND start_at < \(bind: to) AND end_at > \(bind: from)
            """).all()
        return try rows.map {
            try $0.decode(column: "start_at", as: Date.self)..<$0.decode(column: "end_at", as: Date.self)
        }
    }

    private static func insert(_ d: BookingDraft, id: UUID, slot: GridSlot, now: Date, on db: any Database) async throws {
        let search = AppointmentRecord.searchText(
            clientName: d.clientName, carPlate: d.carPlate, phone: d.phone, serviceName: d.serviceName)
        try await db.sql.raw("""
            INSERT INTO ad_appointments (id, source, status, start_at, end_at, client_name, phone, telegram, car_make,
                car_plate, service_id, service_name, price_rub, notes, install_id, created_by_key_id, search_text,
                created_at, updated_at)
            VALUES (\(bind: id), \(bind: d.source.rawValue), \(bind: d.status.rawValue), \(bind: slot.start),
                \(bind: slot.end), \(bind: d.clientName), \(bind: d.phone), \(bind: d.telegram), \(bind: d.carMake),
                \(bind: d.carPlate), \(bind: d.serviceID), \(bind: d.serviceName), \(bind: d.priceRub), \(bind: d.notes),
                \(bind: d.installID), \(bind: d.createdByKeyID), \(bind: search), \(bind: now), \(bind: now))
            """).run()
    }
}
