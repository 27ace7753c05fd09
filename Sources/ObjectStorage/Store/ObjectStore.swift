import Foundation
import Vapor

/// What the store knows about one object.
public struct ObjectInfo: Sendable, Equatable {
    public var size: Int64
    public var contentType: String
    /// Lower-case hex MD5 of the bytes for single-part uploads, without quotes (S3 may return other forms for
    /// multipart objects; treat it as opaque).
    public var etag: String
    public var lastModified: Date

    public init(size: Int64, contentType: String, etag: String, lastModified: Date) {
        self.size = size
        self.contentType = contentType
        self.etag = etag
        self.lastModified = lastModified
    }

    /// The `ETag` header value: the hash in double quotes.
    public var quotedETag: String { "\"\(etag)\"" }
}

/// Bytes read from an object, with the object's info. `range` is the byte range returned (inclusive).
public struct ObjectContents: Sendable {
    public var info: ObjectInfo
    public var range: ClosedRange<Int64>?
    public var bytes: ByteBuffer
}

/// Overrides a presigned GET asks the store to put on the response (`response-content-type` and
/// `response-content-disposition`); both are signed into the URL.
public struct ResponseOverrides: Sendable, Equatable {
    public var contentType: String?
    public var contentDisposition: String?

    public init(contentType: String? = nil, contentDisposition: String? = nil) {
        self.contentType = contentType
        self.contentDisposition = contentDisposition
    }

    var queryParameters: [(name: String, value: String)] {
        var result: [(name: String, value: String)] = []
        if let contentDisposition { result.append(("response-content-disposition", contentDisposition)) }
        if let contentType { result.append(("response-content-type", contentType)) }
        return result
    }
}

/// The object storage both products use: presigning is local computation; the other calls talk to the backend.
/// `requestBaseURL` is the scheme and host of the request being answered (`http://localhost:8080`); only the
/// embedded store uses it, and only when no `PUBLIC_BASE_URL` is configured (contract §7.6).
public protocol ObjectStore: Sendable {
    /// Presigned POST form for one key (contract §7.3). `contentLength` is the accepted file size range.
    func presignPost(
        bucket: String, key: String, contentType: String, contentLength: ClosedRange<Int64>, expiresIn: Int,
        requestBaseURL: String
    ) -> PresignedPost

    /// Presigned GET URL (contract §7.4), signed with `host` only.
    func presignGet(
        bucket: String, key: String, expiresIn: Int, overrides: ResponseOverrides, requestBaseURL: String
    ) -> PresignedRequest

    /// Presigned PUT URL with a signed `Content-Type` and, when given, a signed `Content-Length` (AutoDetail §7.3).
    func presignPut(
        bucket: String, key: String, contentType: String, contentLength: Int64?, expiresIn: Int, requestBaseURL: String
    ) -> PresignedRequest

    /// The unsigned object URL (contract §7.6).
    func objectURL(bucket: String, key: String, requestBaseURL: String) -> String

    /// Size, content type, ETag and modification time; nil when there is no object at the key.
    func head(bucket: String, key: String) async throws -> ObjectInfo?

    /// Stores `size` bytes read from `file` as one object (one streamed request on S3). The embedded store is
    /// write-once and throws `StorageError.objectExists` if the key is taken.
    func put(bucket: String, key: String, file: URL, size: Int64, contentType: String) async throws -> ObjectInfo

    /// Reads an object (or a byte range of it) into memory, refusing more than `maxBytes`. Nil when missing.
    func get(bucket: String, key: String, range: ClosedRange<Int64>?, maxBytes: Int) async throws -> ObjectContents?

    /// Streams an object into a new file at `destination` (never held in memory). Nil when missing.
    func download(bucket: String, key: String, to destination: URL) async throws -> ObjectInfo?

    /// Removes an object; removing a missing object succeeds, as on S3.
    func delete(bucket: String, key: String) async throws

    /// True when the bucket can be used (for `/health/ready`).
    func bucketReachable(bucket: String) async -> Bool
}
