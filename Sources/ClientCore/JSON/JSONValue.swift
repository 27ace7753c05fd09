import Foundation

/// Any JSON value, for the free-form parts of the API (`metadata`, `device_metadata`, `upload_fields`).
///
/// `JSONValue` is decoded and encoded through a **single-value container**: an object is read as
/// `[String: JSONValue]` as a whole, never through a keyed container. Foundation applies no key conversion to a
/// string-keyed dictionary decoded that way, so keys such as `s3_key`, `Content-Type` or `x-amz-signature` arrive
/// exactly as the server sent them, even with a decoder configured with `.convertFromSnakeCase`, and they are
/// written back unchanged by an encoder using `.convertToSnakeCase`.
///
/// ```swift
/// let size = transcript.metadata["file_size_bytes"]?.intValue
/// let key = transcript.metadata["s3_key"]?.stringValue
/// ```
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number written without fraction or exponent that fits in 64 bits.
    case integer(Int64)
    /// Any other number.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object; keys are kept exactly as sent.
    case object([String: JSONValue])
}

extension JSONValue: Codable {
    /// Decodes any JSON value from a single-value container (objects as `[String: JSONValue]`, so keys are never
    /// converted).
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else if let value = try? container.decode([String: JSONValue].self) {
            self = .object(value)
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "Not a JSON value")
        }
    }

    /// Encodes the value through a single-value container (objects as `[String: JSONValue]`, so keys are never
    /// converted).
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case let .bool(value): try container.encode(value)
        case let .integer(value): try container.encode(value)
        case let .number(value): try container.encode(value)
        case let .string(value): try container.encode(value)
        case let .array(value): try container.encode(value)
        case let .object(value): try container.encode(value)
        }
    }
}

extension JSONValue {
    /// The member `key` of an object (nil for other values or a missing key).
    public subscript(key: String) -> JSONValue? {
        if case let .object(object) = self { return object[key] }
        return nil
    }

    /// The element at `index` of an array (nil for other values or an index out of range).
    public subscript(index: Int) -> JSONValue? {
        if case let .array(array) = self, array.indices.contains(index) { return array[index] }
        return nil
    }

    /// The string, if this is a string.
    public var stringValue: String? {
        if case let .string(value) = self { return value }
        return nil
    }

    /// The integer, if this is an integer or a number without fraction.
    public var intValue: Int? {
        switch self {
        case let .integer(value): return Int(exactly: value)
        case let .number(value): return Int(exactly: value)
        default: return nil
        }
    }

    /// The number, if this is an integer or another number.
    public var doubleValue: Double? {
        switch self {
        case let .integer(value): return Double(value)
        case let .number(value): return value
        default: return nil
        }
    }

    /// The boolean, if this is `true` or `false`.
    public var boolValue: Bool? {
        if case let .bool(value) = self { return value }
        return nil
    }

    /// The members, if this is an object.
    public var objectValue: [String: JSONValue]? {
        if case let .object(value) = self { return value }
        return nil
    }

    /// The elements, if this is an array.
    public var arrayValue: [JSONValue]? {
        if case let .array(value) = self { return value }
        return nil
    }

    /// True for `null`.
    public var isNull: Bool { self == .null }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

extension JSONValue: CustomStringConvertible {
    /// Compact JSON text of the value (keys sorted).
    public var description: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self), let text = String(data: data, encoding: .utf8) else {
            return "<invalid JSON>"
        }
        return text
    }
}
