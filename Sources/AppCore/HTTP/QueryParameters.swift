import Foundation
import Vapor

/// The query string decoded once, read with one product's wording and rules (`RequestMessages`): HelpPet's by
/// default, AutoDetail Hub's (blank = missing, `Invalid parameter: …`) with `messages: .autoDetail`.
public struct QueryParameters: Sendable {
    public let values: [String: String]
    public let messages: RequestMessages

    public init(_ request: Request, messages: RequestMessages = .helpPet) {
        var values: [String: String] = [:]
        for pair in (request.url.query ?? "").split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = Self.decode(parts[0])
            if values[name] == nil { values[name] = parts.count > 1 ? Self.decode(parts[1]) : "" }
        }
        self.values = values
        self.messages = messages
    }

    static func decode(_ s: Substring) -> String {
        String(s).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(s)
    }

    /// The value as sent, or trimmed and nil when blank where the contract reads blank as missing.
    public subscript(_ name: String) -> String? {
        guard let raw = values[name] else { return nil }
        guard messages.blankParameterIsMissing else { return raw }
        let value = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        return value.isEmpty ? nil : value
    }

    /// A 400 for parameter `name` with `reason`, in this contract's wording.
    public func invalid(_ name: String, _ reason: String) -> APIError {
        .badRequest(messages.invalidParameter(name, reason))
    }

    /// Every missing parameter of `names`, in that order, in one answer.
    public func requireAll(_ names: [String]) throws {
        let missing = names.filter { self[$0] == nil }
        if !missing.isEmpty { throw APIError.badRequest(messages.missingParameters(missing)) }
    }

    /// HelpPet: `true`/`false`/`1`/`0`, case-insensitive, else `{param} must be true or false`;
    /// AutoDetail Hub: exactly `true`/`false`, else `Invalid parameter: {param} (must be a boolean)`.
    public func optionalBool(_ name: String) throws -> Bool? {
        guard let raw = self[name] else { return nil }
        let spelling = messages.strictBooleanParameters ? raw : raw.lowercased()
        switch spelling {
        case "true": return true
        case "false": return false
        case "1" where !messages.strictBooleanParameters: return true
        case "0" where !messages.strictBooleanParameters: return false
        default: throw invalid(name, messages.booleanParameterReason)
        }
    }

    public func bool(_ name: String, default value: Bool) throws -> Bool {
        try optionalBool(name) ?? value
    }

    /// An id with the id kind's own message (HelpPet's `Invalid … ID format`).
    public func uuid(_ name: String, kind: IDKind) throws -> UUID? {
        guard let raw = self[name] else { return nil }
        guard let id = UUID(canonical: raw) else { throw APIError.badRequest(kind.invalidMessage) }
        return id
    }

    /// An id whose bad value answers `invalid format` for the parameter.
    public func uuid(_ name: String) throws -> UUID? {
        guard let raw = self[name] else { return nil }
        guard let id = UUID(canonical: raw) else { throw invalid(name, "invalid format") }
        return id
    }

    /// A calendar day `YYYY-MM-DD` (HelpPet's `date` parameter is a practice-local day).
    public func day(_ name: String = "date") throws -> CalendarDay? {
        guard let raw = self[name] else { return nil }
        guard let day = CalendarDay(raw) else { throw APIError.badRequest(messages.invalidDayParameter(name)) }
        return day
    }

    public func enumValue<E: RawRepresentable & CaseIterable>(_ name: String, _ type: E.Type) throws -> E?
    where E.RawValue == String {
        guard let raw = self[name] else { return nil }
        // `allCases` is the set a request may name (an enum may hold internal states outside it).
        guard let value = E(rawValue: raw), E.allCases.contains(where: { $0.rawValue == raw }) else {
            throw FieldReader.invalidEnum(name, raw, type)
        }
        return value
    }

    /// One of `allowed`, exact match: `must be one of: a, b`.
    public func oneOf(_ name: String, _ allowed: [String]) throws -> String? {
        guard let raw = self[name] else { return nil }
        guard allowed.contains(raw) else { throw invalid(name, "must be one of: " + allowed.joined(separator: ", ")) }
        return raw
    }

    /// A value `normalise` turns into its stored form (a phone number, say); `invalid format` when it refuses.
    public func normalized(_ name: String, _ normalise: (String) -> String?) throws -> String? {
        guard let raw = self[name] else { return nil }
        guard let value = normalise(raw) else { throw invalid(name, "invalid format") }
        return value
    }

    /// A search text of 1–`max` characters, lower-cased for matching.
    public func search(_ name: String, max: Int = 100) throws -> String? {
        guard let raw = self[name] else { return nil }
        guard raw.count <= max else { throw invalid(name, "must be 1-\(max) characters") }
        return raw.precomposedStringWithCanonicalMapping.lowercased()
    }

    /// `limit` (1...`maxLimit`, default `defaultLimit`) and `offset` (≥ 0, at most `messages.maxOffset`).
    public func pagination(defaultLimit: Int = 50, maxLimit: Int = 200) throws -> Pagination {
        // A contract with a bounded offset states the range for every bad value, a non-integer one included.
        let rangeOnly = messages.maxOffset != nil
        var limit = defaultLimit
        var offset = 0
        if let raw = self["limit"] {
            let range = "must be between 1 and \(maxLimit)"
            guard let v = Int(raw) else { throw invalid("limit", rangeOnly ? range : "must be an integer") }
            guard (1...maxLimit).contains(v) else { throw invalid("limit", range) }
            limit = v
        }
        if let raw = self["offset"] {
            let range = messages.maxOffset.map { "must be between 0 and \($0)" } ?? "must be at least 0"
            guard let v = Int(raw) else { throw invalid("offset", rangeOnly ? range : "must be an integer") }
            guard v >= 0, v <= (messages.maxOffset ?? Int.max) else { throw invalid("offset", range) }
            offset = v
        }
        return Pagination(limit: limit, offset: offset)
    }
}

public struct Pagination: Sendable {
    public let limit: Int
    public let offset: Int
    public init(limit: Int, offset: Int) { self.limit = limit; self.offset = offset }

    /// `offset ..< offset + limit` for `QueryBuilder.range`, its end saturated at `Int.max`: every 64-bit offset is
    /// valid (HelpPet §1.11 sets no upper bound), and `offset + limit` must not trap near `Int.max`.
    public var range: Range<Int> {
        let (end, overflow) = offset.addingReportingOverflow(limit)
        return offset..<(overflow ? Int.max : end)
    }
}

extension Request {
    public var queryParameters: QueryParameters { QueryParameters(self) }
}
