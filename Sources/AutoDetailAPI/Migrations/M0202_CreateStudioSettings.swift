import AppCore
import Fluent
import Foundation
import SQLKit

/// StudioSettings (contract §3.2, §3.9 rule 3): exactly one row. The primary key may only be 1 (no second row) and a
/// trigger refuses deleting it; the row with the defaults is inserted here, so bookings never run without settings.
struct M0202_CreateStudioSettings: AsyncMigration {
    var name: String { "M0202_AutoDetailCreateStudioSettings" }

    func prepare(on database: any Database) async throws {
        let t = SchemaTypes(database.engine)
        try await database.sql.raw("""
            CREATE TABLE ad_studio_settings (
                id \(unsafeRaw: t.int) PRIMARY KEY CHECK (id = 1),
                studio_name \(unsafeRaw: t.text) NOT NULL,
                timezone \(unsafeRaw: t.text) NOT NULL,
                working_hours \(unsafeRaw: t.text) NOT NULL,
                slot_step_minutes \(unsafeRaw: t.int) NOT NULL
                    CHECK (slot_step_minutes BETWEEN 5 AND 240 AND slot_step_minutes % 5 = 0),
                capacity \(unsafeRaw: t.int) NOT NULL CHECK (capacity BETWEEN 1 AND 20),
                booking_window_days \(unsafeRaw: t.int) NOT NULL CHECK (booking_window_days BETWEEN 1 AND 365),
                lead_time_minutes \(unsafeRaw: t.int) NOT NULL CHECK (lead_time_minutes BETWEEN 0 AND 10080),
                updated_at \(unsafeRaw: t.timestamp) NOT NULL
            )
            """).run()
        switch database.engine {
        case .sqlite:
            try await database.sql.raw("""
                CREATE TRIGGER ad_studio_settings_keep BEFORE DELETE ON ad_studio_settings
                BEGIN SELECT RAISE(ABORT, 'the studio settings row cannot be deleted'); END
                """).run()
        case .postgres:
            try await database.sql.raw("""
                CREATE FUNCTION ad_studio_settings_keep() RETURNS trigger LANGUAGE plpgsql AS
                'BEGIN RAISE EXCEPTION ''the studio settings row cannot be deleted''; END'
                """).run()
            try await database.sql.raw("""
                CREATE TRIGGER ad_studio_settings_keep BEFORE DELETE ON ad_studio_settings
                FOR EACH ROW EXECUTE FUNCTION ad_studio_settings_keep()
                """).run()
        }
        let defaults = StudioSettings.defaults(now: WireTime.truncated(Date()))
        try await database.sql.raw("""
            INSERT INTO ad_studio_settings (id, studio_name, timezone, working_hours, slot_step_minutes, capacity,
                booking_window_days, lead_time_minutes, updated_at)
            VALUES (1, \(bind: defaults.studioName), \(bind: defaults.timezone),
                \(bind: WorkingHoursCoding.encode(defaults.hours)), \(bind: defaults.slotStepMinutes),
                \(bind: defaults.capacity), \(bind: defaults.bookingWindowDays), \(bind: defaults.leadTimeMinutes),
                \(bind: defaults.updatedAt))
            """).run()
    }

    func revert(on database: any Database) async throws {
        try await database.sql.raw("DROP TABLE ad_studio_settings").run()
        if database.engine == .postgres {
            try await database.sql.raw("DROP FUNCTION ad_studio_settings_keep()").run()
        }
    }
}
