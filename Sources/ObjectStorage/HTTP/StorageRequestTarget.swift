import Vapor

/// The bucket and key addressed by a `/storage/{bucket}/{key…}` request, taken from the raw (percent-encoded)
/// path rather than from router parameters, because the router drops empty segments (`a//b`) that the key
/// rules must see and reject.
struct StorageRequestTarget {
    let bucket: String
    /// Nil for the bucket root (`/storage/{bucket}` or `/storage/{bucket}/`).
    let key: String?

    static let prefix = "/storage/"

    /// Nil when the path is not under `/storage/` or cannot be decoded (the caller answers 400 for the latter).
    static func parse(rawPath: String) -> Result<StorageRequestTarget, StorageError>? {
        guard rawPath.hasPrefix(prefix) else { return nil }
        let rest = rawPath.dropFirst(prefix.count)
        let bucketPart: Substring, keyPart: Substring?
        if let slash = rest.firstIndex(of: "/") {
            bucketPart = rest[..<slash]
            keyPart = rest[rest.index(after: slash)...]
        } else {
            bucketPart = rest
            keyPart = nil
        }
        guard let bucket = AWSURIEncoding.decode(String(bucketPart)) else {
            return .failure(.invalidArgument("The request path is not valid percent-encoded UTF-8."))
        }
        guard let keyPart, !keyPart.isEmpty else { return .success(.init(bucket: bucket, key: nil)) }
        guard let key = AWSURIEncoding.decode(String(keyPart)) else {
            return .failure(.invalidArgument("The request path is not valid percent-encoded UTF-8."))
        }
        return .success(.init(bucket: bucket, key: key))
    }

    /// The canonical URI S3 signs: `/storage/{bucket}/{key}` with each segment encoded once.
    var canonicalURI: String {
        AWSURIEncoding.encodePath("/storage/\(bucket)/\(key ?? "")")
    }
}
