import AppCore
import Foundation

struct AudioPlaybackResponse: Encodable, Sendable {
    let presignedURL: String
    let expiresIn: Int
    let visitID: String
    let filename: String

    enum CodingKeys: String, CodingKey {
        case presignedURL = "presigned_url"
        case expiresIn = "expires_in"
        case visitID = "visit_id"
        case filename
    }
}
