import Fluent
import Foundation

/// A row of `ad_uploads`: one presign call, bound to an appointment and a kind (contract §3.4).
final class UploadRecord: Model, @unchecked Sendable {
    static let schema = "ad_uploads"

    @ID(key: .id) var id: UUID?
    @Field(key: "appointment_id") var appointmentID: UUID
    @Field(key: "kind") var kind: String
    @Field(key: "object_key") var objectKey: String
    @Field(key: "content_type") var contentType: String
    @Field(key: "filename") var filename: String
    @OptionalField(key: "size_bytes") var sizeBytes: Int64?
    @Field(key: "created_at") var createdAt: Date
    @Field(key: "url_expires_at") var urlExpiresAt: Date
    @OptionalField(key: "photo_id") var photoID: UUID?

    init() {}
}
