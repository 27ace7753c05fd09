import AppCore
import Foundation

/// A parsed JSON response, navigated by key and index. A missing key gives a node whose `isAbsent` is true, so tests
/// can tell an absent key from an explicit `null` (the contract always sends nullable keys).
public struct JSONNode: Sendable, CustomStringConvertible {
    public let value: JSONValue?

    public init(_ value: JSONValue?) { self.value = value }

    public init(data: Data) throws { value = try JSONDecoder().decode(JSONValue.self, from: data) }

    public subscript(key: String) -> JSONNode {
        guard case .object(let o)? = value else { return JSONNode(nil) }
        return JSONNode(o[key])
    }

    public subscript(index: Int) -> JSONNode {
        guard case .array(let a)? = value, a.indices.contains(index) else { return JSONNode(nil) }
        return JSONNode(a[index])
    }

    public var isAbsent: Bool { value == nil }
    public var isNull: Bool { value == .null }
    public var string: String? { if case .string(let s)? = value { return s } else { return nil } }
    public var int: Int? {
        switch value {
        case .integer(let i)?: return Int(i)
        default: return nil
        }
    }
    public var double: Double? {
        switch value {
        case .integer(let i)?: return Double(i)
        case .number(let d)?: return d
        default: return nil
        }
    }
    public var bool: Bool? { if case .bool(let b)? = value { return b } else { return nil } }
    public var array: [JSONNode]? { if case .array(let a)? = value { return a.map(JSONNode.init) } else { return nil } }
    public var count: Int { array?.count ?? 0 }
    public var keys: Set<String> { if case .object(let o)? = value { return Set(o.keys) } else { return [] } }
    /// The `id` (or `uuid`) strings of an array of objects, in order.
    public var ids: [String] { (array ?? []).map { $0["id"].string ?? $0["uuid"].string ?? "" } }

    public var description: String {
        guard let value else { return "<absent>" }
        return (try? String(decoding: JSONCoding.encoder.encode(value), as: UTF8.self)) ?? "<unencodable>"
    }
}

/// Builds a JSON request body from Swift literals: `nil` and `NSNull()` become `null`; keys are sorted.
public enum JSONBody {
    public static func encode(_ value: Any?) -> String {
        switch value {
        case nil, is NSNull: return "null"
        case let b as Bool: return b ? "true" : "false"
        case let i as Int: return String(i)
        case let i as Int64: return String(i)
        case let d as Double: return String(d)
        case let s as String: return quote(s)
        case let a as [Any?]: return "[" + a.map(encode).joined(separator: ",") + "]"
        case let o as [String: Any?]:
            return "{" + o.keys.sorted().map { quote($0) + ":" + encode(o[$0]!) }.joined(separator: ",") + "}"
        case let o as [String: Any]:
            return "{" + o.keys.sorted().map { quote($0) + ":" + encode(o[$0]!) }.joined(separator: ",") + "}"
        case let a as [Any]: return "[" + a.map { encode($0) }.joined(separator: ",") + "]"
        case let u as UUID: return quote(u.uuidString.lowercased())
        case .some(let other):
            // Unwrap nested optionals (`Any?` holding `String?.none`).
            let mirror = Mirror(reflecting: other)
            if mirror.displayStyle == .optional {
                return mirror.children.first.map { encode($0.value) } ?? "null"
            }
            fatalError("JSONBody cannot encode \(type(of: other))")
        }
    }

    public static func quote(_ s: String) -> String {
        String(decoding: try! JSONEncoder().encode(s), as: UTF8.self)
    }
}
