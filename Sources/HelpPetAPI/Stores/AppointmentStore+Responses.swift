import AppCore
import Fluent
import Foundation

/// Builds Appointment representations for any number of appointments with one statement (AppointmentStore), so
/// lists and dashboards never issue one query per appointment.
extension AppointmentStore {
    static func responses(for appointments: [Appointment], on db: any Database) async throws -> [AppointmentResponse] {
        try await responses(for: appointments.compactMap(\.id), on: db)
    }

    static func response(for appointment: Appointment, on db: any Database) async throws -> AppointmentResponse {
        guard let response = try await responses(for: [appointment], on: db).first else {
            throw APIError.appointmentNotFound
        }
        return response
    }
}
