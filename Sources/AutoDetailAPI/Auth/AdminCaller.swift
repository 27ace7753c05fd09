import Foundation

/// The console session of an admin request (contract §2.6).
struct AdminCaller: Sendable {
    let sessionID: UUID
    let userID: UUID
}
