import Foundation

/// One condition of a POST policy.
public enum PostPolicyCondition: Sendable, Equatable {
    /// `{"field": "value"}` or `["eq", "$field", "value"]`: the field must equal `value` exactly.
    case equals(field: String, value: String)
    /// `["starts-with", "$field", "prefix"]`.
    case startsWith(field: String, prefix: String)
    /// `["content-length-range", min, max]`: the file size in bytes, inclusive.
    case contentLengthRange(min: Int64, max: Int64)
}

/// A POST policy document. `json` renders it compactly (`{"expiration":"…","conditions":[…]}`) in the exact
/// condition order given, which is the byte sequence that gets base64-encoded and signed.
public struct PostPolicy: Sendable, Equatable {
    public var expiration: Date
    public var conditions: [PostPolicyCondition]

    public init(expiration: Date, conditions: [PostPolicyCondition]) {
        self.expiration = expiration
        self.conditions = conditions
    }

    public var json: String {
        var out = "{\"expiration\":" + JSONText.string(AmzDate.iso8601(expiration)) + ",\"conditions\":["
        out += conditions.map(Self.render).joined(separator: ",")
        out += "]}"
        return out
    }

    /// Standard base64 with padding of the UTF-8 JSON: the `policy` field and the string to sign.
    public var base64: String { Data(json.utf8).base64EncodedString() }

    private static func render(_ condition: PostPolicyCondition) -> String {
        switch condition {
        case let .equals(field, value):
            return "{" + JSONText.string(field) + ":" + JSONText.string(value) + "}"
        case let .startsWith(field, prefix):
            return "[\"starts-with\"," + JSONText.string("$" + field) + "," + JSONText.string(prefix) + "]"
        case let .contentLengthRange(min, max):
            return "[\"content-length-range\",\(min),\(max)]"
        }
    }
}
