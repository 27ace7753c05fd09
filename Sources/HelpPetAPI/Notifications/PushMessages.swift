import AppCore
import Foundation
import Push

/// What each notification kind looks like on the phone: the alert's wording and the payload keys the app's handler
/// reads (stored with the row, sent unchanged).
enum PushMessages {
    static func notification(
        kind: String, payload: [String: String], createdAt: Date, relevance: TimeInterval
    ) -> APNsNotification? {
        let expiration = createdAt.addingTimeInterval(relevance)
        switch kind {
        case "appointment_booked":
            let pets = payload["pet_name"].flatMap { $0.isEmpty ? nil : $0 } ?? "A pet"
            let owner = payload["pet_owner_name"].map { " (\($0))" } ?? ""
            let time = payload["appointment_time"].map { " at \($0)" } ?? ""
            return APNsNotification(
                title: "New appointment", body: "\(pets)\(owner)\(time)", custom: payload, expiration: expiration,
                collapseID: payload["appointment_id"].map { "appointment-\($0)" })
        case "note_ready":
            let pet = payload["pet_name"].flatMap { $0.isEmpty ? nil : $0 }
            return APNsNotification(
                title: "Note ready to review",
                body: pet.map { "The visit note for \($0) is ready to review." } ?? "A visit note is ready to review.",
                custom: payload, expiration: expiration, collapseID: payload["visit_id"].map { "visit-\($0)" })
        case "appointment_reminder":
            let pets = payload["pet_name"].flatMap { $0.isEmpty ? nil : $0 } ?? "An appointment"
            let owner = payload["pet_owner_name"].map { " (\($0))" } ?? ""
            let time = payload["appointment_local_time"].map { " at \($0)" } ?? ""
            // Worth nothing once the appointment has begun.
            var start = expiration
            if let text = payload["appointment_time"], case .success(let date) = WireTime.parse(text) { start = date }
            return APNsNotification(
                title: "Coming up", body: "\(pets)\(owner)\(time)", custom: payload, expiration: min(expiration, start),
                collapseID: payload["appointment_id"].map { "reminder-\($0)" })
        default:
            return nil
        }
    }

    /// The reminder's payload: the booked push's keys (`type`, `appointment_id`, `pet_owner_name`, `pet_name`,
    /// `appointment_time`) plus the start in the practice's wall time, which the alert shows.
    static func reminderPayload(
        appointmentID: UUID, start: Date, ownerName: String, petNames: [String], zone: TimeZone
    ) -> [String: JSONValue] {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = "HH:mm"
        return [
            "type": .string("appointment_reminder"),
            "appointment_id": .string(appointmentID.lowercased),
            "pet_owner_name": .string(ownerName),
            "pet_name": .string(petNames.joined(separator: ", ")),
            "appointment_time": .string(WireTime.format(start)),
            "appointment_local_time": .string(formatter.string(from: start)),
        ]
    }
}
