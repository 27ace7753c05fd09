import AppCore
import Foundation
import ObjectStorage

/// The answer to an initiate: the visit of the slot and the presigned POST the client uploads with.
struct InitiateRecordingResponse: Encodable, Sendable {
    let visitID: String
    let uploadURL: String
    let uploadFields: [String: String]
    let s3Key: String
    let bucket: String
    let expiresIn: Int

    enum CodingKeys: String, CodingKey {
        case visitID = "visit_id", uploadURL = "upload_url", uploadFields = "upload_fields", s3Key = "s3_key"
        case bucket, expiresIn = "expires_in"
    }

    init(visitID: UUID, key: String, presigned: PresignedPost, bucket: String) {
        self.visitID = visitID.lowercased
        uploadURL = presigned.url
        uploadFields = presigned.fieldMap
        s3Key = key
        self.bucket = bucket
        expiresIn = RecordingStorage.uploadURLLifetime
    }
}
