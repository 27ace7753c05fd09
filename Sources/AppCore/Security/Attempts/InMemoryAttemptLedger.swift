import Fluent
import Foundation
import NIOConcurrencyHelpers

/// The ledger of a single process (the SQLite default): one lock over every key, so a reservation of several keys
/// is atomic.
public final class InMemoryAttemptLedger: AttemptLedger {
    private struct Entry {
        var counted: [Date] = []
        var pending: [UUID: Date] = [:]
        var blockedUntil: Date?

        func window(now: Date) -> AttemptWindow {
            AttemptWindow(
                counted: counted,
                pending: pending.values.filter { now.timeIntervalSince($0) < AttemptWindow.pendingLifetime }.count,
                blockedUntil: blockedUntil)
        }

        func isStale(now: Date, window: TimeInterval) -> Bool {
            (blockedUntil ?? .distantPast) <= now && pending.isEmpty
                && counted.allSatisfy { now.timeIntervalSince($0) >= window }
        }
    }

    private let entries = NIOLockedValueBox<[AttemptKey: Entry]>([:])
    /// Keys are pruned when the table grows past this, so a flood of distinct IPs cannot grow it without bound.
    private static let pruneThreshold = 50_000

    public init() {}

    public func reserve(_ keys: [AttemptKey], hold: Bool, now: Date, on db: any Database) async throws -> AttemptDecision {
        entries.withLockedValue { all in
            var wait: Int?
            for key in keys {
                if let seconds = (all[key] ?? Entry()).window(now: now).retryAfter(key.rule, now: now) {
                    wait = max(wait ?? 0, seconds)
                }
            }
            if let wait { return .refused(retryAfter: wait) }
            let ticket = AttemptTicket(id: UUID(), keys: keys)
            for key in keys {
                var entry = all[key] ?? Entry()
                entry.counted.removeAll { now.timeIntervalSince($0) >= key.rule.window }
                if hold { entry.pending[ticket.id] = now } else { Self.count(now, into: &entry, key.rule) }
                all[key] = entry
            }
            if all.count > Self.pruneThreshold {
                all = all.filter { !$0.value.isStale(now: now, window: $0.key.rule.window) }
            }
            return .granted(ticket)
        }
    }

    public func settle(
        _ ticket: AttemptTicket, counting: [AttemptKey], clearing: [AttemptKey], now: Date, on db: any Database
    ) async throws {
        entries.withLockedValue { all in
            for key in ticket.keys {
                guard var entry = all[key], entry.pending.removeValue(forKey: ticket.id) != nil else { continue }
                if counting.contains(key) { Self.count(now, into: &entry, key.rule) }
                all[key] = entry
            }
            for key in clearing {
                guard var entry = all[key] else { continue }
                entry.counted = []
                entry.blockedUntil = nil
                all[key] = entry
            }
        }
    }

    /// Counts one attempt settled at `now`; a lockout rule that reaches its limit blocks the key from then on and
    /// starts its count afresh.
    private static func count(_ now: Date, into entry: inout Entry, _ rule: AttemptRule) {
        entry.counted.append(now)
        if let until = AttemptWindow(counted: entry.counted).lockoutReached(rule, now: now) {
            entry.blockedUntil = until
            entry.counted = []
        }
    }
}
