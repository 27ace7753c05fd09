import AppCore
import Foundation

struct VisitDeletedResponse: Encodable, Sendable {
    let message: String
    let visitID: String

    enum CodingKeys: String, CodingKey {
        case message
        case visitID = "visit_id"
    }
}
