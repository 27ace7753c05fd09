import AppCore
import Foundation
import Vapor

/// Query parameters with this contract's messages (§1.5, §1.8): blank = missing, `Invalid parameter: …`.
struct QueryReader: Sendable {
    let values: [String: String]

    init(_ request: Request) { values = QueryParameters(request).values }

    /// The trimmed value; nil when absent or blank.
    subscript(_ name: String) -> String? {
        guard let raw = values[name] else { return nil }
        let value = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        return value.isEmpty ? nil : value
    }

    func requireAll(_ names: [String]) throws {
        let missing = names.filter { self[$0] == nil }
        if !missing.isEmpty { throw APIError.missingParameters(missing) }
    }

    func uuid(_ name: String) throws -> UUID? {
        guard let raw = self[name] else { return nil }
        guard let id = UUID(canonical: raw) else { throw APIError.invalidParameter(name, "invalid format") }
        return id
    }

    func day(_ name: String) throws -> CalendarDay? {
        guard let raw = self[name] else { return nil }
        guard let day = CalendarDay(raw) else { throw APIError.invalidParameter(name, "must be a date YYYY-MM-DD") }
        return day
    }

    func bool(_ name: String) throws -> Bool? {
        guard let raw = self[name] else { return nil }
        switch raw {
        case "true": return true
        case "false": return false
        default: throw APIError.invalidParameter(name, "must be a boolean")
        }
    }

    func oneOf(_ name: String, _ allowed: [String]) throws -> String? {
        guard let raw = self[name] else { return nil }
        guard allowed.contains(raw) else {
            throw APIError.invalidParameter(name, "must be one of: " + allowed.joined(separator: ", "))
        }
        return raw
    }

    func phone(_ name: String) throws -> String? {
        guard let raw = self[name] else { return nil }
        guard let phone = ContactNormalization.phone(raw) else { throw APIError.invalidParameter(name, "invalid format") }
        return phone
    }

    /// A search text of 1–`max` characters, lower-cased for matching.
    func search(_ name: String, max: Int = 100) throws -> String? {
        guard let raw = self[name] else { return nil }
        guard raw.count <= max else { throw APIError.invalidParameter(name, "must be 1-\(max) characters") }
        return raw.precomposedStringWithCanonicalMapping.lowercased()
    }

    /// `limit` (1–200, default 50) and `offset` (≥ 0, default 0).
    func pagination() throws -> Pagination {
        var limit = 50, offset = 0
        if let raw = self["limit"] {
            guard let v = Int(raw), (1...200).contains(v) else {
                throw APIError.invalidParameter("limit", "must be between 1 and 200")
            }
            limit = v
        }
        if let raw = self["offset"] {
            guard let v = Int(raw), (0...2_147_483_647).contains(v) else {
                throw APIError.invalidParameter("offset", "must be between 0 and 2147483647")
            }
            offset = v
        }
        return Pagination(limit: limit, offset: offset)
    }
}
