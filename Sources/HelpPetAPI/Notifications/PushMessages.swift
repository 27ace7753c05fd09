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
        default:
            return nil
        }
    }
}
