import AppCore
import Foundation
import ObjectStorage

/// AutoDetail's rule for its bucket in the embedded store: a presigned PUT is accepted only for the key of an
/// upload row (`ad_uploads`, one per presign call) that is not linked yet and whose URL has not expired. Deleting
/// a photo deletes its upload row, so the URL it was uploaded with cannot re-create the object.
struct PhotoUploadAdmission: UploadAdmission {
    let database: DatabaseProvider
    let clock: any AppClock

    func admitsUpload(bucket: String, key: String) async throws -> Bool {
        try await PhotoStore(db: database.db).isUploadExpected(key: key, now: WireTime.truncated(clock.now()))
    }
}
