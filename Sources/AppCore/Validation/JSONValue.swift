import Foundation

/// A JSON document kept as a value tree, so request bodies can be validated field by field with the contract's
/// exact messages (Codable would only say "data corrupted") and free-form objects keep their keys verbatim.
public enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case integer(Int64)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public var isNull: Bool { if case .null = self { return true } else { return false } }

    public var objectValue: [String: JSONValue]? {
        if case .object(let o) = self { return o }
        return nil
    }

    public var arrayValue: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }

    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    public var doubleValue: Double? {
        switch self {
        case .integer(let i): return Double(i)
        case .number(let d): return d
        default: return nil
        }
    }

    /// The same value with every integer written as a number, so `75` read from storage equals `75.0` from a request.
    public var numbersAsDoubles: JSONValue {
        switch self {
        case .integer(let i): return .number(Double(i))
        case .array(let a): return .array(a.map(\.numbersAsDoubles))
        case .object(let o): return .object(o.mapValues(\.numbersAsDoubles))
        default: return self
        }
    }

    /// The JSON type name used in `{field} must be a ...` messages.
    public var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "boolean"
        case .integer, .number: return "number"
        case .string: return "string"
        case .array: return "array"
        case .object: return "object"
        }
    }
}

extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let b = try? container.decode(Bool.self) {
            self = .bool(b)
        } else if let i = try? container.decode(Int64.self) {
            self = .integer(i)
        } else if let d = try? container.decode(Double.self) {
            self = .number(d)
        } else if let s = try? container.decode(String.self) {
            self = .string(s)
        } else if let a = try? container.decode([JSONValue].self) {
            self = .array(a)
        } else {
            // Decoded as a whole dictionary (never through a keyed container) so no key strategy rewrites keys.
            self = .object(try container.decode([String: JSONValue].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let b): try container.encode(b)
        case .integer(let i): try container.encode(i)
        case .number(let d): try container.encode(d)
        case .string(let s): try container.encode(s)
        case .array(let a): try container.encode(a)
        case .object(let o): try container.encode(o)
        }
    }
}

extension JSONValue {
    /// Serialized size in bytes, used for the contract's metadata size limits.
    public func encodedByteCount() -> Int {
        (try? JSONCoding.encoder.encode(self).count) ?? 0
    }

    /// Parses a request body. Throws the contract's 400 details for unparsable or non-object bodies.
    public static func parseObject(_ data: Data) throws -> [String: JSONValue] {
        if data.isEmpty { throw APIError.badRequest("Request body is required") }
        guard StrictJSONSyntax.isValid(data) else { throw APIError.badRequest("Malformed JSON body") }
        let value: JSONValue
        do {
            value = try JSONDecoder().decode(JSONValue.self, from: data)
        } catch {
            throw APIError.badRequest("Malformed JSON body")
        }
        guard case .object(let object) = value else {
            throw APIError.badRequest("Request body must be a JSON object")
        }
        return object
    }
}
