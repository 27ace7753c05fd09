import Foundation
import Vapor

/// The query string decoded once, with the contract's messages for ids, booleans and pagination.
public struct QueryParameters: Sendable {
    public let values: [String: String]

    public init(_ request: Request) {
        var values: [String: String] = [:]
        for pair in (request.url.query ?? "").split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = Self.decode(parts[0])
            if values[name] == nil { values[name] = parts.count > 1 ? Self.decode(parts[1]) : "" }
        }
        self.values = values
    }

    static func decode(_ s: Substring) -> String {
        String(s).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? String(s)
    }

    public subscript(_ name: String) -> String? { values[name] }

    /// `true`/`false`/`1`/`0`, case-insensitive; anything else → `{param} must be true or false`.
    public func bool(_ name: String, default value: Bool) throws -> Bool {
        guard let raw = values[name] else { return value }
        switch raw.lowercased() {
        case "true", "1": return true
        case "false", "0": return false
        default: throw APIError.badRequest("\(name) must be true or false")
        }
    }

    public func optionalBool(_ name: String) throws -> Bool? {
        guard values[name] != nil else { return nil }
        return try bool(name, default: false)
    }

    public func uuid(_ name: String, kind: IDKind) throws -> UUID? {
        guard let raw = values[name] else { return nil }
        guard let id = UUID(canonical: raw) else { throw APIError.badRequest(kind.invalidMessage) }
        return id
    }

    /// The `date` parameter (a practice-local day) with its fixed message.
    public func day(_ name: String = "date") throws -> CalendarDay? {
        guard let raw = values[name] else { return nil }
        guard let day = CalendarDay(raw) else { throw APIError.badRequest("Invalid date format. Use YYYY-MM-DD") }
        return day
    }

    public func enumValue<E: RawRepresentable & CaseIterable>(_ name: String, _ type: E.Type) throws -> E?
    where E.RawValue == String {
        guard let raw = values[name] else { return nil }
        // `allCases` is the set a request may name (an enum may hold internal states outside it).
        guard let value = E(rawValue: raw), E.allCases.contains(where: { $0.rawValue == raw }) else {
            throw FieldReader.invalidEnum(name, raw, type)
        }
        return value
    }

    public func pagination(defaultLimit: Int = 50, maxLimit: Int = 200) throws -> Pagination {
        var limit = defaultLimit
        var offset = 0
        if let raw = values["limit"] {
            guard let v = Int(raw) else { throw APIError.badRequest("limit must be an integer") }
            guard (1...maxLimit).contains(v) else { throw APIError.badRequest("limit must be between 1 and \(maxLimit)") }
            limit = v
        }
        if let raw = values["offset"] {
            guard let v = Int(raw) else { throw APIError.badRequest("offset must be an integer") }
            guard v >= 0 else { throw APIError.badRequest("offset must be at least 0") }
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
