import Foundation

/// The S3 backend's settings as plain values (the server maps `STORAGE_REGION`, `S3_ENDPOINT`,
/// `S3_FORCE_PATH_STYLE` and `AWS_ACCESS_KEY_ID` / `AWS_SECRET_ACCESS_KEY` / `AWS_SESSION_TOKEN` onto it).
public struct S3Configuration: Sendable {
    public var credentials: SigV4Credentials
    public var region: String
    /// `S3_ENDPOINT` for S3-compatible services (`https://minio.example.com:9000`); nil for Amazon S3.
    public var endpoint: String?
    /// `S3_FORCE_PATH_STYLE=true`: `{endpoint}/{bucket}/{key}` instead of `{bucket}.{host}/{key}`.
    public var forcePathStyle: Bool
    /// Time allowed for HEAD, GET, DELETE and HeadBucket; PUT adds time for the bytes (see `S3ObjectStore`).
    public var requestTimeout: TimeInterval
    public var now: @Sendable () -> Date

    public init(
        credentials: SigV4Credentials, region: String = "us-east-1", endpoint: String? = nil,
        forcePathStyle: Bool = false, requestTimeout: TimeInterval = 30, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.credentials = credentials
        self.region = region
        self.endpoint = endpoint
        self.forcePathStyle = forcePathStyle
        self.requestTimeout = requestTimeout
        self.now = now
    }
}

/// A setting the S3 backend cannot start with.
public struct S3ConfigurationError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}
