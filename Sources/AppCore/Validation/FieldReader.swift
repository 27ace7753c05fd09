import Foundation

/// Reads and validates the fields of one JSON object in the order a handler asks for them, throwing the
/// contract's exact 400 answer for the first failure. Both products read bodies with this one type; `messages`
/// holds the wording of the product's contract (HelpPet §1.7 by default, AutoDetail Hub §1.5).
/// The `required…`/`optional…` accessors read HelpPet's way (a blank string is too short, `null` is a value);
/// the accessors in `FieldReader+BlankIsMissing.swift` read AutoDetail Hub's way (blank or `null` = absent).
public struct FieldReader: Sendable {
    public let object: [String: JSONValue]
    public let messages: RequestMessages

    public init(_ object: [String: JSONValue], messages: RequestMessages = .helpPet) {
        self.object = object
        self.messages = messages
    }

    /// A 400 for `key` with `reason`, in this contract's wording.
    public func invalid(_ key: String, _ reason: String) -> APIError {
        .badRequest(messages.invalidField(key, reason))
    }

    func missing(_ key: String) -> APIError { .badRequest(messages.missingFields([key])) }

    func null(_ key: String) -> APIError { invalid(key, messages.nullReason) }

    public func contains(_ key: String) -> Bool { object[key] != nil }

    /// Keys the caller may change; used for "At least one updatable field is required".
    public func containsAny(of keys: [String]) -> Bool { keys.contains { object[$0] != nil } }

    // MARK: Strings

    public func requiredString(_ key: String, trim: Bool = true, min: Int = 1, max: Int) throws -> String {
        switch try optionalString(key, trim: trim, min: min, max: max, nullable: false) {
        case .absent: throw missing(key)
        case .null: throw null(key)
        case .value(let v): return v
        }
    }

    /// A string that may be absent; `nullable` decides whether an explicit `null` is accepted.
    public func optionalString(
        _ key: String, trim: Bool = true, min: Int = 0, max: Int, nullable: Bool = true
    ) throws -> FieldPatch<String> {
        guard let raw = object[key] else { return .absent }
        guard case .string(let s) = raw else {
            if raw.isNull {
                if nullable { return .null }
                throw null(key)
            }
            throw invalid(key, "must be a string")
        }
        return .value(try Self.checkString(s, field: key, trim: trim, min: min, max: max))
    }

    public static func checkString(_ s: String, field: String, trim: Bool, min: Int, max: Int) throws -> String {
        if s.unicodeScalars.contains("\u{0}") {
            throw APIError.badRequest("\(field) contains invalid characters")
        }
        let value = trim ? s.trimmingCharacters(in: .whitespacesAndNewlines) : s
        let length = value.unicodeScalars.count
        if min >= 1 && length == 0 {
            throw APIError.badRequest("\(field) must not be empty")
        }
        if length < min { throw APIError.badRequest("\(field) must be at least \(min) characters") }
        if length > max { throw APIError.badRequest("\(field) must be at most \(max) characters") }
        return value
    }

    // MARK: Identifiers

    public func requiredUUID(_ key: String, kind: IDKind) throws -> UUID {
        switch try optionalUUID(key, kind: kind, nullable: false) {
        case .absent: throw missing(key)
        case .null: throw null(key)
        case .value(let v): return v
        }
    }

    public func optionalUUID(_ key: String, kind: IDKind, nullable: Bool = true) throws -> FieldPatch<UUID> {
        guard let raw = object[key] else { return .absent }
        switch raw {
        case .null:
            if nullable { return .null }
            throw null(key)
        case .string(let s):
            guard let id = UUID(canonical: s) else { throw APIError.badRequest(kind.invalidMessage) }
            return .value(id)
        default:
            throw APIError.badRequest(kind.invalidMessage)
        }
    }

    /// An array of ids: 1...max items, each canonical, no duplicates.
    public func uuidArray(_ key: String, kind: IDKind, minCount: Int = 1, maxCount: Int) throws -> [UUID]? {
        guard let raw = object[key] else { return nil }
        guard case .array(let items) = raw else {
            if raw.isNull { throw null(key) }
            throw invalid(key, "must be an array")
        }
        if items.count < minCount { throw invalid(key, "must contain at least \(minCount) item") }
        if items.count > maxCount { throw invalid(key, "must contain at most \(maxCount) items") }
        var ids: [UUID] = []
        for item in items {
            guard case .string(let s) = item, let id = UUID(canonical: s) else {
                throw APIError.badRequest("\(kind.invalidMessage): \(Self.display(item))")
            }
            ids.append(id)
        }
        if Set(ids).count != ids.count { throw invalid(key, "contains duplicate ids") }
        return ids
    }

    // MARK: Numbers

    public func optionalInteger(
        _ key: String, range: ClosedRange<Int64>, nullable: Bool = false
    ) throws -> FieldPatch<Int64> {
        guard let raw = object[key] else { return .absent }
        let value: Int64
        switch raw {
        case .null:
            if nullable { return .null }
            throw null(key)
        case .integer(let i): value = i
        case .number(let d):
            guard d.rounded() == d, let i = Int64(exactly: d) else {
                throw invalid(key, "must be an integer")
            }
            value = i
        default:
            throw invalid(key, "must be an integer")
        }
        guard range.contains(value) else {
            throw invalid(key, "must be between \(range.lowerBound) and \(range.upperBound)")
        }
        return .value(value)
    }

    /// A number with the contract's exclusive lower bound of 0: `{field} must be greater than 0 and at most {max}`.
    public func optionalPositiveNumber(_ key: String, max: Double, nullable: Bool = true) throws -> FieldPatch<Double> {
        guard let raw = object[key] else { return .absent }
        let value: Double
        switch raw {
        case .null:
            if nullable { return .null }
            throw null(key)
        case .integer(let i): value = Double(i)
        case .number(let d): value = d
        default: throw invalid(key, "must be a number")
        }
        guard value > 0, value <= max, value.isFinite else {
            throw invalid(key, "must be greater than 0 and at most \(Self.formatBound(max))")
        }
        return .value(value)
    }

    // MARK: Booleans, enums, objects, arrays

    public func optionalBool(_ key: String) throws -> Bool? {
        guard let raw = object[key] else { return nil }
        switch raw {
        case .bool(let b): return b
        case .null: throw null(key)
        default: throw invalid(key, "must be a boolean")
        }
    }

    public func optionalEnum<E: RawRepresentable & CaseIterable & Sendable>(
        _ key: String, _ type: E.Type, nullable: Bool = false
    ) throws -> FieldPatch<E> where E.RawValue == String {
        guard let raw = object[key] else { return .absent }
        switch raw {
        case .null:
            if nullable { return .null }
            throw null(key)
        case .string(let s):
            // `allCases` is the set a request may name (an enum may hold internal states outside it).
            guard let value = E(rawValue: s), E.allCases.contains(where: { $0.rawValue == s }) else {
                throw Self.invalidEnum(key, s, type)
            }
            return .value(value)
        default:
            throw invalid(key, "must be a string")
        }
    }

    public func requiredEnum<E: RawRepresentable & CaseIterable & Sendable>(_ key: String, _ type: E.Type) throws -> E
    where E.RawValue == String {
        switch try optionalEnum(key, type) {
        case .absent: throw missing(key)
        case .null: throw null(key)
        case .value(let v): return v
        }
    }

    public static func invalidEnum<E: RawRepresentable & CaseIterable>(_ field: String, _ value: String, _ type: E.Type)
        -> APIError where E.RawValue == String
    {
        let allowed = E.allCases.map(\.rawValue).joined(separator: ", ")
        return APIError.badRequest("Invalid \(field): '\(value)'. Allowed: \(allowed)")
    }

    public func optionalObject(_ key: String, nullable: Bool = false) throws -> FieldPatch<[String: JSONValue]> {
        guard let raw = object[key] else { return .absent }
        switch raw {
        case .object(let o): return .value(o)
        case .null:
            if nullable { return .null }
            throw null(key)
        default: throw invalid(key, "must be an object")
        }
    }

    public func optionalArray(_ key: String) throws -> [JSONValue]? {
        guard let raw = object[key] else { return nil }
        switch raw {
        case .array(let a): return a
        case .null: throw null(key)
        default: throw invalid(key, "must be an array")
        }
    }

    // MARK: Times

    public func requiredDateTime(_ key: String) throws -> Date {
        guard let raw = object[key] else { throw missing(key) }
        return try Self.dateTime(raw, field: key)
    }

    public func optionalDateTime(_ key: String) throws -> Date? {
        guard let raw = object[key] else { return nil }
        return try Self.dateTime(raw, field: key)
    }

    static func dateTime(_ raw: JSONValue, field: String) throws -> Date {
        switch raw {
        case .null: throw APIError.badRequest("\(field) cannot be null")
        case .string(let s): return try WireTime.parseInputDateTime(s, field: field)
        default: throw APIError.badRequest("\(field) must be a string")
        }
    }

    public func optionalDay(_ key: String, nullable: Bool = true) throws -> FieldPatch<CalendarDay> {
        guard let raw = object[key] else { return .absent }
        switch raw {
        case .null:
            if nullable { return .null }
            throw null(key)
        case .string(let s):
            guard let day = CalendarDay(s) else {
                throw invalid(key, "must be a date in YYYY-MM-DD format")
            }
            return .value(day)
        default: throw invalid(key, "must be a string")
        }
    }

    // MARK: Immutable fields

    /// Immutable fields may be repeated with their current value; any other value is refused.
    public func requireUnchanged(_ key: String, current: String?) throws {
        guard let raw = object[key] else { return }
        let same: Bool
        switch raw {
        case .null: same = current == nil
        case .string(let s):
            if let c = current, let a = UUID(canonical: s), let b = UUID(canonical: c) {
                same = a == b
            } else {
                same = s == current
            }
        case .integer(let i): same = current == String(i)
        case .bool(let b): same = current == String(b)
        default: same = false
        }
        if !same { throw invalid(key, "cannot be changed") }
    }

    // MARK: Helpers

    static func display(_ value: JSONValue) -> String {
        switch value {
        case .string(let s): return s
        case .integer(let i): return String(i)
        case .number(let d): return String(d)
        case .bool(let b): return String(b)
        case .null: return "null"
        case .array, .object: return value.typeName
        }
    }

    static func formatBound(_ value: Double) -> String {
        value.rounded() == value ? String(Int64(value)) : String(value)
    }
}

// MARK: Contact fields

extension FieldReader {
    /// One `@`, a non-empty local part, a domain with a dot, at most 254 characters (trimmed).
    public static func isValidEmail(_ s: String) -> Bool {
        guard s.unicodeScalars.count <= 254 else { return false }
        let parts = s.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty else { return false }
        let domain = parts[1]
        guard domain.contains("."), !domain.hasPrefix("."), !domain.hasSuffix("."), !domain.contains(" ") else {
            return false
        }
        return !s.contains(where: { $0.isWhitespace })
    }

    public func email(_ key: String, required: Bool, nullable: Bool = false) throws -> FieldPatch<String> {
        // The 254-character limit is part of "a valid email address", so it answers with that message.
        let patch = try optionalString(key, min: 1, max: 100_000, nullable: nullable)
        if case .absent = patch, required { throw missing(key) }
        if case .value(let v) = patch, !Self.isValidEmail(v) {
            throw invalid(key, "must be a valid email address")
        }
        return patch
    }

    /// Digits, spaces and `+ - ( ) .` only, at most 32 characters.
    public func phone(_ key: String) throws -> FieldPatch<String> {
        let patch = try optionalString(key, max: 32)
        if case .value(let v) = patch {
            let allowed = Set("0123456789 +-().")
            if !v.allSatisfy({ allowed.contains($0) }) { throw invalid(key, "contains invalid characters") }
        }
        return patch
    }
}
