import Foundation

/// One bucket of the embedded store and the largest object a presigned PUT may store in it.
public struct LocalBucket: Sendable, Equatable {
    public var name: String
    /// Limit for presigned PUTs (declared `Content-Length`) and for POST files whatever their policy says.
    public var maxObjectBytes: Int64

    public init(name: String, maxObjectBytes: Int64 = 104_857_600) {
        self.name = name
        self.maxObjectBytes = maxObjectBytes
    }

    /// S3's bucket-name rules (3–63 of `a-z 0-9 . -`, starting and ending with a letter or digit). They also
    /// keep bucket directories apart from the store's own `.tmp` and `.meta` directories.
    public static func isValidName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard (3...63).contains(bytes.count) else { return false }
        func alnum(_ b: UInt8) -> Bool { (b >= 97 && b <= 122) || (b >= 48 && b <= 57) }
        guard alnum(bytes.first!), alnum(bytes.last!) else { return false }
        return bytes.allSatisfy { alnum($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") }
            && !name.contains("..")
    }
}

/// Everything the embedded store needs, passed in as plain values (the server maps its environment onto this:
/// `STORAGE_LOCAL_PATH`, `STORAGE_ACCESS_KEY_ID` / `STORAGE_SECRET_ACCESS_KEY`, `STORAGE_REGION`,
/// `HELPPET_BUCKET` / `AUTODETAIL_BUCKET`, `PUBLIC_BASE_URL`).
public struct LocalObjectStoreConfiguration: Sendable {
    public var rootDirectory: URL
    public var credentials: SigV4Credentials
    public var region: String
    public var buckets: [LocalBucket]
    /// `PUBLIC_BASE_URL`; nil means "the scheme and host of the request being answered".
    public var publicBaseURL: String?
    /// Declared `Content-Length` limit of a POST form: the 100 MiB file plus 1 MiB of form fields (contract §7.3).
    public var maxPostRequestBytes: Int64
    /// What may precede the file part of a POST form (field names, values and part headers).
    public var maxFormFieldBytes: Int
    public var maxClockSkew: TimeInterval
    public var now: @Sendable () -> Date

    public init(
        rootDirectory: URL, credentials: SigV4Credentials, region: String = "us-east-1", buckets: [LocalBucket],
        publicBaseURL: String? = nil, maxPostRequestBytes: Int64 = 105_906_176, maxFormFieldBytes: Int = 1_048_576,
        maxClockSkew: TimeInterval = 900, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.rootDirectory = rootDirectory
        self.credentials = credentials
        self.region = region
        self.buckets = buckets
        self.publicBaseURL = publicBaseURL
        self.maxPostRequestBytes = maxPostRequestBytes
        self.maxFormFieldBytes = maxFormFieldBytes
        self.maxClockSkew = maxClockSkew
        self.now = now
    }
}
