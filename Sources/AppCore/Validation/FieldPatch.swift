/// A field of a partial update: absent (leave unchanged), explicit `null` (clear) or a new value.
public enum FieldPatch<Value: Sendable>: Sendable {
    case absent
    case null
    case value(Value)

    public var isAbsent: Bool { if case .absent = self { return true } else { return false } }

    /// The value to store given the current one: absent keeps it, null clears it.
    public func applied(to current: Value?) -> Value? {
        switch self {
        case .absent: return current
        case .null: return nil
        case .value(let v): return v
        }
    }

    public var valueIfPresent: Value? { if case .value(let v) = self { return v } else { return nil } }
}
