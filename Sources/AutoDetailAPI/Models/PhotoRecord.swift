import Fluent
import Foundation

/// A row of `ad_photos` (contract §3.4).
final class PhotoRecord: Model, @unchecked Sendable {
    static let schema = "ad_photos"

    @ID(key: .id) var id: UUID?
    @Field(key: "appointment_id") var appointmentID: UUID
    @Field(key: "kind") var kind: String
    @Field(key: "object_key") var objectKey: String
    @Field(key: "content_type") var contentType: String
    @Field(key: "etag") var etag: String
    @Field(key: "size_bytes") var sizeBytes: Int64
    @Field(key: "upload_url_expires_at") var uploadURLExpiresAt: Date
    @OptionalField(key: "verified_at") var verifiedAt: Date?
    @Field(key: "mismatch") var mismatch: Bool
    @Field(key: "position") var position: Int
    @Field(key: "created_at") var createdAt: Date

    init() {}
}
