extension FieldPatch {
    /// The same patch with its value transformed (e.g. a validated day to its stored text).
    public func map<T: Sendable>(_ transform: (Value) -> T) -> FieldPatch<T> {
        switch self {
        case .absent: return .absent
        case .null: return .null
        case .value(let v): return .value(transform(v))
        }
    }
}
