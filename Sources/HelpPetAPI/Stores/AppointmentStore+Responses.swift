import AppCore
import Fluent
import Foundation

/// Builds Appointment representations for any number of appointments with one statement (AppointmentStore), so
/// lists and dashboards never issue one query per appointment.
extension AppointmentStore {
    func responses(for appointments: [Appointment]) async throws -> [AppointmentResponse] {
        try await responses(for: appointments.compactMap(\.id))
    }

    func response(for appointment: Appointment) async throws -> AppointmentResponse {
        guard let response = try await responses(for: [appointment]).first else {
            throw APIError.appointmentNotFound
        }
        return response
    }
}
