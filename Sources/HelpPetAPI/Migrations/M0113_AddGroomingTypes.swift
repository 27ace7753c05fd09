import AppCore
import Fluent

/// `grooming` as a medical-record type and an appointment type: the app's pickers offer it.
struct M0113_AddGroomingTypes: AsyncMigration {
    var name: String { "M0113_AddGroomingTypes" }

    static let recordTypes = """
        record_type IN ('checkup', 'vaccination', 'surgery', 'emergency', 'dental', 'diagnostic', 'treatment', \
        'follow_up', 'lab_result', 'visit_summary', 'other', 'grooming')
        """
    static let appointmentTypes = """
        appointment_type IN ('checkup', 'vaccination', 'surgery', 'emergency', 'follow_up', 'consultation', 'grooming')
        """

    func prepare(on database: any Database) async throws {
        try await CheckConstraintWidening(
            table: "medical_records", postgresConstraint: "medical_records_record_type_check",
            postgresCheck: Self.recordTypes,
            sqliteFragment: "'visit_summary', 'other')", sqliteReplacement: "'visit_summary', 'other', 'grooming')"
        ).apply(on: database)
        try await CheckConstraintWidening(
            table: "appointments", postgresConstraint: "appointments_appointment_type_check",
            postgresCheck: Self.appointmentTypes,
            sqliteFragment: "'follow_up', 'consultation')", sqliteReplacement: "'follow_up', 'consultation', 'grooming')"
        ).apply(on: database)
    }

    func revert(on database: any Database) async throws {}
}
