import AppCore
import Foundation

/// The 409 bodies of the recording endpoints: the contract's text plus a machine-readable `visit_id` (§4.0).
enum RecordingConflict {
    static func exists(_ visit: Visit) -> APIError {
        let id = visit.id!.lowercased
        let message = visit.appointmentID != nil
            ? "Recording already exists for this appointment and pet. Visit ID: \(id)"
            : "Audio recording already exists for pet \(visit.petID.lowercased) today. Visit ID: \(id)"
        return APIError(.conflict, message, extraFields: ["visit_id": .string(id)])
    }

    static func uploadInProgress(_ visit: Visit) -> APIError {
        let id = visit.id!.lowercased
        return APIError(
            .conflict, "Recording upload already in progress for this appointment and pet. Visit ID: \(id)",
            extraFields: ["visit_id": .string(id)])
    }

    /// A legacy upload is storing this slot's file (its reservation is younger than 15 minutes).
    static func hasLiveLegacyReservation(_ visit: Visit, now: Date) -> Bool {
        guard visit.state == .new, visit.uploadMethod == "multipart", let reserved = visit.reservedAt else { return false }
        return now.timeIntervalSince(reserved) < 15 * 60
    }
}
