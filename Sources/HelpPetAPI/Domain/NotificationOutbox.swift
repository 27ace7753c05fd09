import AppCore
import Fluent
import Foundation

/// Records "an appointment was booked for you" for a future push sender, with the payload keys the app's
/// notification handler reads (`type`, `appointment_id`, `pet_owner_name`, `pet_name`, `appointment_time`).
enum NotificationOutbox {
    static func appointmentBooked(
        _ appointment: Appointment, for vetID: UUID, ownerName: String, petNames: [String], now: Date,
        on db: any Database
    ) async throws {
        let entry = NotificationOutboxEntry()
        entry.id = UUID()
        entry.userID = vetID
        entry.kind = "appointment_booked"
        entry.payload = [
            "type": .string("appointment_booked"),
            "appointment_id": .string(appointment.id!.lowercased),
            "pet_owner_name": .string(ownerName),
            "pet_name": .string(petNames.joined(separator: ", ")),
            "appointment_time": .string(WireTime.format(appointment.appointmentDate)),
        ]
        entry.createdAt = now
        try await entry.create(on: db)
    }
}
