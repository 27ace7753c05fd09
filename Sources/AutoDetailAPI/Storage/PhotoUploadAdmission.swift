import AppCore
import Foundation
import ObjectStorage
import SQLKit
import Vapor

/// AutoDetail's rule for its bucket in the embedded store: a presigned PUT is accepted only for the key of an
/// upload row (`ad_uploads`, one per presign call) that is not linked yet and whose URL has not expired. Deleting
/// a photo deletes its upload row, so the URL it was uploaded with cannot re-create the object.
struct PhotoUploadAdmission: UploadAdmission {
    func admitsUpload(bucket: String, key: String, request: Request) async throws -> Bool {
        let rows = try await request.db.sql.raw("""
            SELECT id FROM ad_uploads
            WHERE object_key = \(bind: key) AND photo_id IS NULL AND url_expires_at > \(bind: request.now)
            """).all()
        return !rows.isEmpty
    }
}
