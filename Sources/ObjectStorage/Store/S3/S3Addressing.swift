/// Where a bucket and its objects live (contract §7.3 and §7.6):
/// - Amazon S3, virtual-hosted: `https://{bucket}.s3.{region}.amazonaws.com/{key}` (always the regional host,
///   because the global one redirects POSTs for buckets outside us-east-1);
/// - with `S3_ENDPOINT`: the bucket name prepended to the endpoint's host, `{scheme}://{bucket}.{host}/{key}`;
/// - path style (`S3_FORCE_PATH_STYLE=true`): `{S3_ENDPOINT}/{bucket}/{key}`, or
///   `https://s3.{region}.amazonaws.com/{bucket}/{key}` without an endpoint.
public struct S3Addressing: Sendable, Equatable {
    public var region: String
    public var endpoint: URLOrigin?
    public var forcePathStyle: Bool

    public init(region: String, endpoint: URLOrigin?, forcePathStyle: Bool) {
        self.region = region
        self.endpoint = endpoint
        self.forcePathStyle = forcePathStyle
    }

    /// Scheme and host requests for `bucket` go to (the path prefix of an endpoint included).
    public func origin(bucket: String) -> URLOrigin {
        switch (endpoint, forcePathStyle) {
        case (nil, false): return URLOrigin(scheme: "https", hostname: "\(bucket).s3.\(region).amazonaws.com", port: nil)
        case (nil, true): return URLOrigin(scheme: "https", hostname: "s3.\(region).amazonaws.com", port: nil)
        case let (endpoint?, false): return endpoint.prependingHostLabel(bucket)
        case let (endpoint?, true): return endpoint
        }
    }

    /// The decoded request path of the bucket itself (HeadBucket, POST uploads): `/` or `/{bucket}/`.
    public func bucketPath(bucket: String) -> String {
        origin(bucket: bucket).pathPrefix + (forcePathStyle ? "/\(bucket)/" : "/")
    }

    /// The decoded request path of an object: `/{key}` or `/{bucket}/{key}` (after any endpoint path).
    public func objectPath(bucket: String, key: String) -> String {
        bucketPath(bucket: bucket) + key
    }

    /// The presigned POST `upload_url`.
    public func uploadURL(bucket: String) -> String {
        let origin = origin(bucket: bucket)
        return "\(origin.scheme)://\(origin.host)\(AWSURIEncoding.encodePath(bucketPath(bucket: bucket)))"
    }

    /// The unsigned object URL.
    public func objectURL(bucket: String, key: String) -> String {
        let origin = origin(bucket: bucket)
        return "\(origin.scheme)://\(origin.host)\(AWSURIEncoding.encodePath(objectPath(bucket: bucket, key: key)))"
    }
}
