import Foundation
import SQLKit

/// One storage key the server issued for a recording (a row of `upload_intents`, docs/recording-safety.md).
struct UploadIntent: Sendable, Equatable {
    enum Status: String, Sendable {
        /// Issued, nothing seen under it yet; an object landing here may become the visit's current recording.
        case open
        /// Issued before the visit was replaced (`replace_existing`); an object landing here is kept as a
        /// previous recording, never made current.
        case superseded
        /// An object was found here and attached to the visit (as its recording or a previous one).
        case landed
        /// Its URL expired and the final check found nothing: no longer looked at.
        case closed

        /// Still waiting for an object (what complete and the reconciler look under).
        var isUnsettled: Bool { self == .open || self == .superseded }
    }

    let id: UUID
    /// nil once the visit was deleted: a dead intent, whose key the reconciler removes from storage.
    let visitID: UUID?
    let storageKey: String
    let attempt: Int
    let contentType: String
    let filename: String
    let uploadMethod: String
    let status: Status
    /// The last time a URL (or a legacy reservation) was issued for this key.
    let issuedAt: Date
    /// When that URL stops working.
    let expiresAt: Date

    init(row: any SQLRow) throws {
        id = try row.decode(column: "id", as: UUID.self)
        visitID = try row.decode(column: "visit_id", as: UUID?.self)
        storageKey = try row.decode(column: "storage_key", as: String.self)
        attempt = try row.decode(column: "attempt", as: Int.self)
        contentType = try row.decode(column: "content_type", as: String.self)
        filename = try row.decode(column: "filename", as: String.self)
        uploadMethod = try row.decode(column: "upload_method", as: String.self)
        status = Status(rawValue: try row.decode(column: "status", as: String.self)) ?? .closed
        issuedAt = try row.decode(column: "issued_at", as: Date.self)
        expiresAt = try row.decode(column: "expires_at", as: Date.self)
    }
}
