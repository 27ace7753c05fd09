import NIOConcurrencyHelpers
import NIOCore

/// A process-local cache whose entries are used for at most `lifetime` after the load that produced them STARTED,
/// so what it answers is never older than `lifetime` however long the load took; `invalidate` drops an entry at once
/// (a change made through this process). A load that overlaps an invalidation is returned but not stored, so a
/// stale read can never outlive the invalidation that should have removed it. Misses (nil loads) are not stored.
public final class ExpiringCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    public let lifetime: TimeAmount
    public let maxEntries: Int

    private struct Entry {
        let value: Value
        let loadedAt: NIODeadline
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var generation: UInt64 = 0
    }

    private let state = NIOLockedValueBox(State())

    /// - Parameter maxEntries: past this many entries the expired ones are dropped (all of them if none expired),
    ///   so memory stays bounded whatever the number of keys.
    public init(lifetime: TimeAmount, maxEntries: Int = 10_000) {
        self.lifetime = lifetime
        self.maxEntries = maxEntries
    }

    public func value(for key: Key, load: () async throws -> Value?) async rethrows -> Value? {
        let started = NIODeadline.now()
        let (cached, generation) = state.withLockedValue { state -> (Value?, UInt64) in
            if let entry = state.entries[key], started - entry.loadedAt < lifetime { return (entry.value, state.generation) }
            return (nil, state.generation)
        }
        if let cached { return cached }
        guard let loaded = try await load() else { return nil }
        state.withLockedValue { state in
            guard state.generation == generation else { return }
            if state.entries.count >= maxEntries {
                state.entries = state.entries.filter { started - $0.value.loadedAt < lifetime }
                if state.entries.count >= maxEntries { state.entries.removeAll() }
            }
            state.entries[key] = Entry(value: loaded, loadedAt: started)
        }
        return loaded
    }

    /// Call after the commit of a change to what `key` caches.
    public func invalidate(_ key: Key) {
        state.withLockedValue { state in
            state.entries[key] = nil
            state.generation &+= 1
        }
    }

    /// Drops every entry: after a change that may touch any of them.
    public func invalidateAll() {
        state.withLockedValue { state in
            state.entries.removeAll()
            state.generation &+= 1
        }
    }
}
