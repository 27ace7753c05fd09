import Foundation

/// A presigned POST: where to send the form and every field to send with it, in the contract's order
/// (`key`, `Content-Type`, `x-amz-algorithm`, `x-amz-credential`, `x-amz-date`, [`x-amz-security-token`],
/// `policy`, `x-amz-signature`). Clients then add the `file` part last.
public struct PresignedPost: Sendable, Equatable {
    public struct Field: Sendable, Equatable, Codable {
        public var name: String
        public var value: String
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    public var url: String
    public var fields: [Field]
    public var expiresIn: Int

    public init(url: String, fields: [Field], expiresIn: Int) {
        self.url = url
        self.fields = fields
        self.expiresIn = expiresIn
    }

    /// The fields as a map (for `upload_fields`); names are unique, so nothing is lost.
    public var fieldMap: [String: String] {
        Dictionary(fields.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    public func value(of name: String) -> String? {
        fields.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }
}
