import Crypto
import Foundation
import Synchronization

/// Signing keys by (secret, scope). A key takes four HMACs to derive and only changes when the day, region or service
/// of the scope does, so every presign and verification of a day can share one: each upload's `initiate` presigns,
/// and each upload and playback verifies.
final class SigV4SigningKeyCache: Sendable {
    static let shared = SigV4SigningKeyCache(capacity: 16)

    private struct Entry {
        var key: SymmetricKey
        var lastUsed: UInt64
    }

    private struct State {
        var entries: [String: Entry] = [:]
        var clock: UInt64 = 0
    }

    private let capacity: Int
    private let state = Mutex(State())

    init(capacity: Int) { self.capacity = capacity }

    func key(secretAccessKey: String, scope: SigV4Scope) -> SymmetricKey {
        // NUL between the parts: configuration text never holds one, so each (secret, day, region, service) has
        // its own name even when a part contains "/".
        let name = [secretAccessKey, scope.day, scope.region, scope.service].joined(separator: "\u{0}")
        if let found = state.withLock({ state -> SymmetricKey? in
            state.clock += 1
            state.entries[name]?.lastUsed = state.clock
            return state.entries[name]?.key
        }) {
            return found
        }
        let derived = SigV4.signingKey(secretAccessKey: secretAccessKey, scope: scope)
        state.withLock { state in
            state.clock += 1
            if state.entries.count >= capacity, state.entries[name] == nil,
                let oldest = state.entries.min(by: { $0.value.lastUsed < $1.value.lastUsed })?.key
            {
                state.entries.removeValue(forKey: oldest)
            }
            state.entries[name] = Entry(key: derived, lastUsed: state.clock)
        }
        return derived
    }

    var count: Int { state.withLock { $0.entries.count } }
}

extension SigV4 {
    /// `signingKey(secretAccessKey:scope:)`, derived once per secret and scope (a day) and then reused.
    public static func cachedSigningKey(secretAccessKey: String, scope: SigV4Scope) -> SymmetricKey {
        SigV4SigningKeyCache.shared.key(secretAccessKey: secretAccessKey, scope: scope)
    }
}
