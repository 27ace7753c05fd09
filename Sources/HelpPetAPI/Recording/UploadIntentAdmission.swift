import AppCore
import Foundation
import ObjectStorage

/// HelpPet's rule for its bucket in the embedded store: a presigned upload is accepted only for the key of a live
/// upload intent (an existing visit still waiting for that object, URL not expired). A deleted visit's URL, or
/// one whose object already landed, is refused with 403 `AccessDenied`.
struct UploadIntentAdmission: UploadAdmission {
    let database: DatabaseProvider
    let clock: any AppClock

    func admitsUpload(bucket: String, key: String) async throws -> Bool {
        try await UploadIntentStore(db: database.db).isLive(key: key, now: WireTime.truncated(clock.now()))
    }
}
