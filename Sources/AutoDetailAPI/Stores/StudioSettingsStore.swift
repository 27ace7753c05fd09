import AppCore
import Fluent
import Foundation
import PostgresNIO
import SQLKit

/// The one `ad_studio_settings` row (contract §3.2): read, locked for a booking or a settings change, written.
struct StudioSettingsStore: Sendable {
    let db: any Database

    private static let rowDecoding = SQLRowDecoder(keyDecodingStrategy: .convertFromSnakeCase)

    /// The settings as they are now (reads; bookings lock the row, see `locked()`).
    func current() async throws -> StudioSettings {
        guard let row = try await db.sql.raw("SELECT \(unsafeRaw: SettingsRow.columns) FROM ad_studio_settings st WHERE st.id = 1")
            .first(decoding: SettingsRow.self, with: Self.rowDecoding)
        else { throw APIError(.internalServerError, "Internal server error") }
        return row.settings
    }

    /// The booking lock and the settings it protects; call inside `writeTransaction`. On PostgreSQL the row lock
    /// (`FOR UPDATE`) is the first statement of the transaction; on SQLite the transaction already holds the
    /// database's write lock (`BEGIN IMMEDIATE`).
    func locked() async throws -> StudioSettings {
        var rows = try await db.prepared(LockedSettings(), decoding: SettingsRow.self, with: Self.rowDecoding)
        if rows == nil {
            let lock = db.engine == .postgres ? " FOR UPDATE" : ""
            rows = try await db.sql.raw("""
                SELECT \(unsafeRaw: SettingsRow.columns) FROM ad_studio_settings st WHERE st.id = 1\(unsafeRaw: lock)
                """).all(decoding: SettingsRow.self, with: Self.rowDecoding)
        }
        guard let row = rows?.first else { throw APIError(.internalServerError, "Internal server error") }
        return row.settings
    }

    /// `locked()` prepared on PostgreSQL.
    private struct LockedSettings: PreparedRead {
        static let sql = "SELECT \(SettingsRow.columns) FROM ad_studio_settings st WHERE st.id = 1 FOR UPDATE"
        func makeBindings() -> PostgresBindings { PostgresBindings() }
    }

    /// Applies `change` to the settings read under the booking lock and writes them, in one write transaction, so
    /// a booking never sees half-applied settings. Returns the settings as stored.
    func update(now: Date, _ change: @escaping @Sendable (inout StudioSettings) -> Void) async throws -> StudioSettings {
        try await db.writeTransaction { db in
            let store = StudioSettingsStore(db: db)
            var settings = try await store.locked()
            change(&settings)
            settings.updatedAt = now
            try await store.save(settings)
            return settings
        }
    }

    private func save(_ settings: StudioSettings) async throws {
        try await db.sql.raw("""
            UPDATE ad_studio_settings SET studio_name = \(bind: settings.studioName), timezone = \(bind: settings.timezone),
                working_hours = \(bind: WorkingHoursCoding.encode(settings.hours)),
                slot_step_minutes = \(bind: settings.slotStepMinutes), capacity = \(bind: settings.capacity),
                booking_window_days = \(bind: settings.bookingWindowDays),
                lead_time_minutes = \(bind: settings.leadTimeMinutes),
                admin_email = \(bind: settings.adminEmail), updated_at = \(bind: settings.updatedAt)
            WHERE id = 1
            """).run()
    }
}
