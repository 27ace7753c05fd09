/// The text fields of a POST form, in the order received. Field names are case-insensitive, as on S3.
public struct PostFormFields: Sendable, Equatable {
    public private(set) var entries: [PresignedPost.Field] = []

    public init() {}

    public init(_ entries: [(String, String)]) {
        for (name, value) in entries { _ = append(name: name, value: value) }
    }

    /// Adds a field; false when a field of that name (ignoring case) was already sent, which the store refuses
    /// because the policy would check one value while another one is used.
    public mutating func append(name: String, value: String) -> Bool {
        guard self.value(of: name) == nil else { return false }
        entries.append(.init(name: name, value: value))
        return true
    }

    public func value(of name: String) -> String? {
        let wanted = name.lowercased()
        return entries.first { $0.name.lowercased() == wanted }?.value
    }

    /// Total bytes of names and values, for the limit on what may precede the file.
    public var byteCount: Int { entries.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count } }
}

/// What a verified POST form allows: the key, the stored content type and the accepted file sizes.
public struct PostUploadGrant: Sendable, Equatable {
    public var key: String
    /// The `Content-Type` field (the file part's own header is ignored, contract §7.3).
    public var contentType: String?
    /// From `content-length-range`; nil when the policy sets no range.
    public var contentLength: ClosedRange<Int64>?
}
