import AppCore
import Foundation

struct LegacyUploadResponse: Encodable, Sendable {
    let message: String
    let fileURL: String
    let fileKey: String
    let visitID: String
    let petID: String
    let appointmentID: String

    enum CodingKeys: String, CodingKey {
        case message
        case fileURL = "file_url"
        case fileKey = "file_key"
        case visitID = "visit_id"
        case petID = "pet_id"
        case appointmentID = "appointment_id"
    }
}
