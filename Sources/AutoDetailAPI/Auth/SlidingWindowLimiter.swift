import Foundation
import NIOConcurrencyHelpers

/// A sliding-window counter per key, per server process (contract §2.7). `Retry-After` is the time until the oldest
/// counted event leaves the window (at least 1 s). Rejected requests are not counted.
final class SlidingWindowLimiter: Sendable {
    let limit: Int
    let window: TimeInterval
    let enabled: Bool
    private let events = NIOLockedValueBox<[String: [Date]]>([:])

    init(limit: Int, window: TimeInterval, enabled: Bool) {
        self.limit = limit
        self.window = window
        self.enabled = enabled
    }

    /// Seconds to wait when the key is at its limit, else nil.
    func retryAfter(_ key: String, now: Date) -> Int? {
        guard enabled else { return nil }
        return events.withLockedValue { all in
            let live = (all[key] ?? []).filter { now.timeIntervalSince($0) < window }
            all[key] = live.isEmpty ? nil : live
            guard live.count >= limit, let oldest = live.first else { return nil }
            return max(1, Int((oldest.addingTimeInterval(window).timeIntervalSince(now)).rounded(.up)))
        }
    }

    /// Checks and, when allowed, counts one event (atomically). Returns the wait when refused.
    func acquire(_ key: String, now: Date) -> Int? {
        guard enabled else { return nil }
        return events.withLockedValue { all in
            var live = (all[key] ?? []).filter { now.timeIntervalSince($0) < window }
            if live.count >= limit, let oldest = live.first {
                all[key] = live
                return max(1, Int((oldest.addingTimeInterval(window).timeIntervalSince(now)).rounded(.up)))
            }
            live.append(now)
            all[key] = live
            if all.count > 50_000 { Self.prune(&all, now: now, window: window) }
            return nil
        }
    }

    func record(_ key: String, now: Date) {
        guard enabled else { return }
        events.withLockedValue { all in
            var live = (all[key] ?? []).filter { now.timeIntervalSince($0) < window }
            live.append(now)
            all[key] = live
            if all.count > 50_000 { Self.prune(&all, now: now, window: window) }
        }
    }

    /// Takes back one event counted at `at` (a request counted by one limit but refused by another).
    func forget(_ key: String, at: Date) {
        events.withLockedValue { all in
            guard var list = all[key], let index = list.lastIndex(of: at) else { return }
            list.remove(at: index)
            all[key] = list.isEmpty ? nil : list
        }
    }

    func clear(_ key: String) {
        _ = events.withLockedValue { $0.removeValue(forKey: key) }
    }

    private static func prune(_ all: inout [String: [Date]], now: Date, window: TimeInterval) {
        all = all.filter { $0.value.contains { now.timeIntervalSince($0) < window } }
    }
}
