import Foundation

/// Reads in the AutoDetail Hub way (§1.2, §1.5): strings are trimmed and NFC-normalised, a blank string or an
/// explicit `null` counts as absent, `requireAll` lists every missing field at once, then each accessor answers
/// for the first invalid field in the order asked, type errors before length and format errors. Messages come
/// from `messages`, so these accessors read any product's body.
extension FieldReader {
    public enum Lines: Sendable { case single, multi }

    /// True when a required value counts as missing: absent, `null`, or a string that is blank after trimming.
    public static func isMissing(_ value: JSONValue?) -> Bool {
        switch value {
        case nil, .null?: return true
        case .string(let s)?: return s.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
        default: return false
        }
    }

    /// Every missing field of `names`, in that order, in one answer.
    public func requireAll(_ names: [String]) throws {
        let missing = names.filter { Self.isMissing(object[$0]) }
        if !missing.isEmpty { throw APIError.badRequest(messages.missingFields(missing)) }
    }

    // MARK: Strings

    /// A trimmed, NFC-normalised string; nil when absent, `null` or blank. Length in Characters, `min`...`max`.
    public func string(_ name: String, min: Int = 0, max: Int, lines: Lines = .single) throws -> String? {
        guard let raw = object[name], !raw.isNull else { return nil }
        guard case .string(let s) = raw else { throw invalid(name, "must be a string") }
        return try checkedString(s, field: name, min: min, max: max, lines: lines)
    }

    public func checkedString(_ s: String, field: String, min: Int, max: Int, lines: Lines) throws -> String? {
        let value = s.trimmingCharacters(in: .whitespacesAndNewlines).precomposedStringWithCanonicalMapping
        if value.isEmpty { return nil }
        if let reason = Self.controlCharacterReason(value, lines: lines) { throw invalid(field, reason) }
        if value.count < min || value.count > max { throw invalid(field, Self.lengthReason(min: min, max: max)) }
        return value
    }

    static func lengthReason(min: Int, max: Int) -> String {
        min > 0 ? "must be \(min)-\(max) characters" : "must be at most \(max) characters"
    }

    static func controlCharacterReason(_ value: String, lines: Lines) -> String? {
        for scalar in value.unicodeScalars where scalar.value < 0x20 || scalar.value == 0x7F {
            if lines == .multi && (scalar == "\n" || scalar == "\r" || scalar == "\t") { continue }
            return "must not contain control characters"
        }
        return nil
    }

    /// A password: never trimmed; nil only when absent, `null` or empty.
    public func password(_ name: String, max: Int) throws -> String? {
        guard let raw = object[name], !raw.isNull else { return nil }
        guard case .string(let s) = raw else { throw invalid(name, "must be a string") }
        if s.isEmpty { return nil }
        if s.count > max { throw invalid(name, "must be at most \(max) characters") }
        return s
    }

    // MARK: Other types

    /// A JSON integer (`60` and `60.0` accepted; `60.5` and `"60"` refused), within `range`.
    public func integer(_ name: String, range: ClosedRange<Int>? = nil) throws -> Int? {
        guard let raw = object[name], !raw.isNull else { return nil }
        guard let value = Self.integerValue(raw) else { throw invalid(name, "must be an integer") }
        if let range, !range.contains(value) {
            throw invalid(name, "must be between \(range.lowerBound) and \(range.upperBound)")
        }
        return value
    }

    static func integerValue(_ raw: JSONValue) -> Int? {
        switch raw {
        case .integer(let i): return Int(exactly: i)
        case .number(let d):
            guard d.isFinite, d.rounded() == d, let i = Int(exactly: d) else { return nil }
            return i
        default: return nil
        }
    }

    public func bool(_ name: String) throws -> Bool? {
        guard let raw = object[name], !raw.isNull else { return nil }
        guard case .bool(let b) = raw else { throw invalid(name, "must be a boolean") }
        return b
    }

    /// One of `allowed` (exact match; `caseInsensitive` for content types).
    public func oneOf(_ name: String, _ allowed: [String], caseInsensitive: Bool = false) throws -> String? {
        guard let raw = object[name], !raw.isNull else { return nil }
        guard case .string(let s) = raw else { throw invalid(name, "must be a string") }
        let value = s.trimmingCharacters(in: .whitespacesAndNewlines)
        if value.isEmpty { return nil }
        let match = allowed.first { caseInsensitive ? $0.lowercased() == value.lowercased() : $0 == value }
        guard let match else { throw invalid(name, "must be one of: " + allowed.joined(separator: ", ")) }
        return match
    }

    public func uuid(_ name: String) throws -> UUID? {
        guard let raw = object[name], !raw.isNull else { return nil }
        guard case .string(let s) = raw else { throw invalid(name, "must be a string") }
        let value = s.trimmingCharacters(in: .whitespacesAndNewlines)
        if value.isEmpty { return nil }
        guard let id = UUID(canonical: value) else { throw invalid(name, "invalid format") }
        return id
    }

    /// A normalised contact field (phone, plate, telegram, URL): a string, then `invalid format` when `normalise`
    /// refuses it, then the length rule when one is given.
    public func normalized(
        _ name: String, _ normalise: (String) -> String?, length: ClosedRange<Int>? = nil
    ) throws -> String? {
        guard let raw = object[name], !raw.isNull else { return nil }
        guard case .string(let s) = raw else { throw invalid(name, "must be a string") }
        let trimmed = s.trimmingCharacters(in: .whitespacesAndNewlines).precomposedStringWithCanonicalMapping
        if trimmed.isEmpty { return nil }
        if let reason = Self.controlCharacterReason(trimmed, lines: .single) { throw invalid(name, reason) }
        guard let value = normalise(trimmed) else { throw invalid(name, "invalid format") }
        if let length, !length.contains(value.count) {
            throw invalid(name, Self.lengthReason(min: length.lowerBound, max: length.upperBound))
        }
        return value
    }

    // MARK: Partial updates

    /// `null` on a non-nullable field of a partial update (`Invalid field: <name> (must not be null)`).
    public func rejectNull(_ name: String) throws {
        if object[name]?.isNull == true { throw null(name) }
    }
}
