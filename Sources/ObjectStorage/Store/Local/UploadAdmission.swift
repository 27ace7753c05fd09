import NIOConcurrencyHelpers
import Vapor

/// A product's answer to "does the server still expect an upload to this key?".
///
/// A presigned URL stays valid until it expires, whatever happens to the record it was issued for meanwhile. The
/// store knows nothing about visits or photos, so each product that issues upload URLs for a bucket registers its
/// own rule: HelpPet accepts only keys of a live upload intent of an existing visit, AutoDetail only keys of an
/// existing photo upload. An upload to a key without one is refused like any other policy failure (403
/// `AccessDenied`), so a deleted record's URL cannot re-create its object.
public protocol UploadAdmission: Sendable {
    /// True when an upload to `key` in `bucket` is expected now. A thrown error refuses the upload with 503
    /// (the product could not tell, for example because its database is unreachable).
    func admitsUpload(bucket: String, key: String) async throws -> Bool
}

/// The registered `UploadAdmission` of each bucket. A bucket without one admits every correctly signed upload
/// (the store on its own is product-agnostic).
public final class UploadAdmissions: Sendable {
    private let byBucket = NIOLockedValueBox<[String: any UploadAdmission]>([:])

    public init() {}

    /// Sets the rule of `bucket` (the last registration wins).
    public func register(_ admission: any UploadAdmission, forBucket bucket: String) {
        byBucket.withLockedValue { $0[bucket] = admission }
    }

    /// nil when the upload may go ahead, else the S3 error to answer with.
    func refusal(bucket: String, key: String, logger: Logger) async -> StorageError? {
        guard let admission = byBucket.withLockedValue({ $0[bucket] }) else { return nil }
        do {
            return try await admission.admitsUpload(bucket: bucket, key: key) ? nil : .noUploadExpected
        } catch {
            logger.warning("upload admission could not be decided: \(String(reflecting: type(of: error)))")
            return .serviceUnavailable
        }
    }
}
