import Foundation

/// A row of `ad_photos` (contract §3.4) as the stores return it. `verifiedAt`/`mismatch` change when the §7.5
/// integrity check runs, so they are `var`.
struct PhotoRow: Decodable, Sendable {
    /// The columns of a photo joined to its appointment, each prefixed `photo_` (decoded with that prefix).
    static let prefixedColumns = """
        p.id AS photo_id, p.appointment_id AS photo_appointment_id, p.kind AS photo_kind,
        p.object_key AS photo_object_key, p.etag AS photo_etag, p.size_bytes AS photo_size_bytes,
        p.upload_url_expires_at AS photo_upload_url_expires_at, p.verified_at AS photo_verified_at,
        p.mismatch AS photo_mismatch, p.created_at AS photo_created_at
        """

    let id: UUID
    let appointmentId: UUID
    let kind: String
    let objectKey: String
    let etag: String
    let sizeBytes: Int64
    let uploadUrlExpiresAt: Date
    var verifiedAt: Date?
    var mismatch: Bool
    let createdAt: Date
}

/// The photo columns of a LEFT JOIN: all null when the appointment has no photo.
struct JoinedPhotoColumns: Decodable, Sendable {
    let id: UUID?
    let appointmentId: UUID?
    let kind: String?
    let objectKey: String?
    let etag: String?
    let sizeBytes: Int64?
    let uploadUrlExpiresAt: Date?
    let verifiedAt: Date?
    let mismatch: Bool?
    let createdAt: Date?

    var photo: PhotoRow? {
        guard let id, let appointmentId, let kind, let objectKey, let etag, let sizeBytes, let uploadUrlExpiresAt,
            let mismatch, let createdAt
        else { return nil }
        return PhotoRow(
            id: id, appointmentId: appointmentId, kind: kind, objectKey: objectKey, etag: etag, sizeBytes: sizeBytes,
            uploadUrlExpiresAt: uploadUrlExpiresAt, verifiedAt: verifiedAt, mismatch: mismatch, createdAt: createdAt)
    }
}
