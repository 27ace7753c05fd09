import Foundation
import NIOConcurrencyHelpers

/// A sliding-window request limit per key (a client IP), kept in this process's memory.
///
/// TODO(attempt ledger): the lead is adding a shared `AttemptLedger` in AppCore (a table on PostgreSQL, so N API
/// nodes share one count). When it is on this branch, replace this type with a `reserve(_:hold: false)` on an
/// `AttemptRule` per route; until then each process counts on its own, so N nodes allow N times the limit.
final class PerProcessRateLimiter: Sendable {
    let limit: Int
    let window: TimeInterval
    let enabled: Bool
    private let events = NIOLockedValueBox<[String: [Date]]>([:])

    init(limit: Int, window: TimeInterval, enabled: Bool) {
        self.limit = limit
        self.window = window
        self.enabled = enabled
    }

    /// Counts one request of `key`, or answers the seconds to wait when the key is at its limit (a refused request
    /// is not counted).
    func acquire(_ key: String, now: Date) -> Int? {
        guard enabled else { return nil }
        return events.withLockedValue { all in
            var live = (all[key] ?? []).filter { now.timeIntervalSince($0) < window }
            if live.count >= limit, let oldest = live.first {
                all[key] = live
                return max(1, Int(oldest.addingTimeInterval(window).timeIntervalSince(now).rounded(.up)))
            }
            live.append(now)
            all[key] = live
            // Forget idle keys now and then, so a scan from many addresses cannot grow the table without bound.
            if all.count > 50_000 { all = all.filter { $0.value.contains { now.timeIntervalSince($0) < window } } }
            return nil
        }
    }
}
