import AppCore
import Fluent
import SQLKit

/// Appointments (contract §3.3, §3.9): enums, `endIso > startIso`, snapshots, restricted service references, the
/// install reference cleared when the install is deleted, and the indexes of rule 6. Capacity cannot be a constraint;
/// it is enforced by the serialised booking transaction (rule 5, `BookingTransaction`).
struct M0206_CreateAppointments: AsyncMigration {
    var name: String { "M0206_AutoDetailCreateAppointments" }

    func prepare(on database: any Database) async throws {
        let t = SchemaTypes(database.engine)
        try await database.sql.raw("""
            CREATE TABLE ad_appointments (
                id \(unsafeRaw: t.uuid) PRIMARY KEY,
                source \(unsafeRaw: t.text) NOT NULL CHECK (source IN ('ios', 'api', 'admin')),
                status \(unsafeRaw: t.text) NOT NULL
                    CHECK (status IN ('new', 'confirmed', 'in_progress', 'done', 'cancelled')),
                start_at \(unsafeRaw: t.timestamp) NOT NULL,
                end_at \(unsafeRaw: t.timestamp) NOT NULL,
                client_name \(unsafeRaw: t.text) NOT NULL,
                phone \(unsafeRaw: t.text),
                telegram \(unsafeRaw: t.text),
                car_make \(unsafeRaw: t.text),
                car_plate \(unsafeRaw: t.text),
                service_id \(unsafeRaw: t.uuid) NOT NULL REFERENCES ad_services (id) ON DELETE RESTRICT,
                service_name \(unsafeRaw: t.text) NOT NULL,
                price_rub \(unsafeRaw: t.int) NOT NULL CHECK (price_rub >= 0),
                notes \(unsafeRaw: t.text),
                install_id \(unsafeRaw: t.uuid) REFERENCES ad_install_profiles (id) ON DELETE SET NULL,
                created_by_key_id \(unsafeRaw: t.uuid) REFERENCES ad_api_keys (id) ON DELETE RESTRICT,
                search_text \(unsafeRaw: t.text) NOT NULL,
                created_at \(unsafeRaw: t.timestamp) NOT NULL,
                updated_at \(unsafeRaw: t.timestamp) NOT NULL,
                CONSTRAINT ad_appointments_interval CHECK (end_at > start_at),
                CONSTRAINT ad_appointments_creator CHECK ((source = 'admin') = (created_by_key_id IS NULL))
            )
            """).run()
        for (index, columns) in [
            ("ad_appointments_start", "start_at"), ("ad_appointments_install_start", "install_id, start_at"),
            ("ad_appointments_key_start", "created_by_key_id, start_at"), ("ad_appointments_phone", "phone"),
        ] {
            try await database.sql.raw("CREATE INDEX \(unsafeRaw: index) ON ad_appointments (\(unsafeRaw: columns))").run()
        }
    }

    func revert(on database: any Database) async throws {
        try await database.sql.raw("DROP TABLE ad_appointments").run()
    }
}
