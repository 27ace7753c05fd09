import Foundation

// Field shapes beyond the basic types: unix seconds, URLs, string lists and size-bounded objects.
extension FieldReader {
    /// Unix seconds must be a JSON integer (§1.6); an integral number such as `1736960400.0` is the same value.
    public func requiredUnixSeconds(_ key: String) throws -> Int64 {
        guard let raw = object[key] else { throw missing(key) }
        switch raw {
        case .integer(let i): return i
        case .number(let d):
            guard d.rounded() == d, let i = Int64(exactly: d) else {
                throw invalid(key, "must be an integer number of seconds")
            }
            return i
        case .null: throw null(key)
        default: throw invalid(key, "must be an integer")
        }
    }

    /// An absolute `http`/`https` URL of at most `max` characters; every other string, the length included,
    /// gets the one message `{field} must be an absolute http or https URL`.
    public func optionalHTTPURL(_ key: String, max: Int, nullable: Bool = true) throws -> FieldPatch<String> {
        let patch = try optionalString(key, trim: false, min: 0, max: Int.max, nullable: nullable)
        guard case .value(let s) = patch else { return patch }
        let invalid = invalid(key, "must be an absolute http or https URL")
        guard s.unicodeScalars.count <= max,
            !s.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F }),
            let components = URLComponents(string: s),
            let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = components.host, !host.isEmpty
        else { throw invalid }
        return .value(s)
    }

    /// An array of strings (not null): at most `maxCount` items, each trimmed and 1...`itemMax` characters,
    /// else `{field} items must be 1 to {itemMax} characters`.
    public func optionalStringArray(_ key: String, maxCount: Int, itemMax: Int) throws -> [String]? {
        guard let items = try optionalArray(key) else { return nil }
        if items.count > maxCount { throw invalid(key, "must contain at most \(maxCount) items") }
        return try items.map { item in
            guard case .string(let s) = item else { throw invalid(key, "items must be strings") }
            if s.unicodeScalars.contains("\u{0}") { throw invalid(key, "contains invalid characters") }
            let value = s.trimmingCharacters(in: .whitespacesAndNewlines)
            guard (1...itemMax).contains(value.unicodeScalars.count) else {
                throw invalid(key, "items must be 1 to \(itemMax) characters")
            }
            return value
        }
    }

    /// An object (not null) whose serialized form is at most `maxBytes` bytes and which has at most `maxKeys`
    /// top-level keys: `{field} must be at most {n} bytes` / `{field} must have at most {n} keys`.
    /// U+0000 anywhere inside (PostgreSQL's jsonb cannot store it) → `{field} contains invalid characters`.
    public func optionalBoundedObject(
        _ key: String, maxBytes: Int, maxKeys: Int = .max, nullable: Bool = false
    ) throws -> [String: JSONValue]? {
        guard case .value(let object) = try optionalObject(key, nullable: nullable) else { return nil }
        if JSONValue.object(object).containsNUL {
            throw invalid(key, "contains invalid characters")
        }
        if JSONValue.object(object).encodedByteCount() > maxBytes {
            throw invalid(key, "must be at most \(maxBytes) bytes")
        }
        if object.count > maxKeys { throw invalid(key, "must have at most \(maxKeys) keys") }
        return object
    }
}

extension JSONValue {
    /// True when any key or string inside contains U+0000.
    public var containsNUL: Bool {
        switch self {
        case .string(let s): return s.unicodeScalars.contains("\u{0}")
        case .array(let items): return items.contains { $0.containsNUL }
        case .object(let o): return o.contains { $0.key.unicodeScalars.contains("\u{0}") || $0.value.containsNUL }
        case .null, .bool, .integer, .number: return false
        }
    }
}
