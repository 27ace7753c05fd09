import Foundation
import NIOConcurrencyHelpers

/// The answers of successful key checks of this process, for at most `timeToLive` (1 s): a request whose key was
/// checked less than a second ago makes no query for it. Invalidation is explicit and total: every write that can
/// change an answer (a key revoked, an install blocked, unblocked or deleted) clears the cache after it is done, so
/// in the process that made the change it applies from the next request. Another process sharing the PostgreSQL
/// database may answer from its cache for at most `timeToLive` after the change (the staleness bound of
/// docs/read-path-autodetail.md). Failed checks are never cached, so a new key or an unblocked install is never held
/// back. A lookup that started before an invalidation cannot store its (possibly old) answer after it: the
/// generation counter refuses it.
final class KeyCallerCache: Sendable {
    static let defaultTimeToLive: Duration = .seconds(1)
    /// Far above any realistic number of active keys; reaching it clears the cache rather than growing it.
    static let maxEntries = 10_000

    private struct Entry {
        let caller: KeyCaller
        let expires: ContinuousClock.Instant
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var generation: UInt64 = 0
    }

    let timeToLive: Duration
    private let state = NIOLockedValueBox(State())

    init(timeToLive: Duration = KeyCallerCache.defaultTimeToLive) {
        self.timeToLive = min(timeToLive, Self.defaultTimeToLive)
    }

    /// The cached caller of a key hash, if checked less than `timeToLive` ago.
    func caller(forHash hash: String) -> KeyCaller? {
        guard timeToLive > .zero else { return nil }
        let now = ContinuousClock.now
        return state.withLockedValue { state in
            guard let entry = state.entries[hash] else { return nil }
            guard entry.expires > now else {
                state.entries[hash] = nil
                return nil
            }
            return entry.caller
        }
    }

    /// Taken before the lookup query; `remember` stores only if no invalidation happened since.
    var generation: UInt64 { state.withLockedValue { $0.generation } }

    func remember(_ caller: KeyCaller, forHash hash: String, lookedUpAt generation: UInt64) {
        guard timeToLive > .zero else { return }
        let expires = ContinuousClock.now.advanced(by: timeToLive)
        state.withLockedValue { state in
            guard state.generation == generation else { return }
            if state.entries.count >= Self.maxEntries { state.entries.removeAll(keepingCapacity: true) }
            state.entries[hash] = Entry(caller: caller, expires: expires)
        }
    }

    func invalidateAll() {
        state.withLockedValue { state in
            state.generation &+= 1
            state.entries.removeAll(keepingCapacity: true)
        }
    }
}
