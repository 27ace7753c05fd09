import Fluent

extension Model {
    /// Assigns only a different value. Fluent counts every assignment as a change, but a PUT that changes nothing
    /// must leave `updated_at` alone, so updates go through this and then consult `hasChanges`.
    func setIfChanged<T: Equatable>(_ keyPath: ReferenceWritableKeyPath<Self, T>, _ value: T) {
        if self[keyPath: keyPath] != value { self[keyPath: keyPath] = value }
    }
}
